"""The command line: ``tripeaks`` (main), its solver commands, the terminal game and serve."""
