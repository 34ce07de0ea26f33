"""Work behind the routes: the group committer and the solver's worker processes."""
