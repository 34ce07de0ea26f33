"""docs/rules.md §7: the board in one sentence, character for character, in fi, ca and en."""

import pytest
from example import A_SPADES, K_CLUBS, TWO_DIAMONDS, example_game
from winning import find_win

from tripeaks import Card, Game, card_name, describe

H_FI, H_CA, H_EN = "piilokortti", "carta oculta", "hidden card"


def hidden(word: str, n: int) -> str:
    return ", ".join([word] * n)


START = {
    "fi": f"Nostopakka: 23 korttia; poistopino: ristiässä. Huippukortit: {hidden(H_FI, 3)}; "
    f"rivi 2: {hidden(H_FI, 6)}; rivi 3: {hidden(H_FI, 9)}; alin rivi: pata 3, pata 5, "
    "ristikuningas, pata 4, ruutu 2, pataässä, ruutukuningas, hertta 8, risti 7, pata 9.",
    "ca": f"Pila per robar: 23 cartes; pila de descart: as de trèvols. Cims: {hidden(H_CA, 3)}; "
    f"fila 2: {hidden(H_CA, 6)}; fila 3: {hidden(H_CA, 9)}; fila inferior: 3 de piques, "
    "5 de piques, rei de trèvols, 4 de piques, 2 de diamants, as de piques, rei de diamants, "
    "8 de cors, 7 de trèvols, 9 de piques.",
    "en": f"Stock: 23 cards; discard: ace of clubs. Peaks: {hidden(H_EN, 3)}; row 2: "
    f"{hidden(H_EN, 6)}; row 3: {hidden(H_EN, 9)}; bottom row: 3 of spades, 5 of spades, "
    "king of clubs, 4 of spades, 2 of diamonds, ace of spades, king of diamonds, 8 of hearts, "
    "7 of clubs, 9 of spades.",
}

AFTER = {
    "fi": f"Nostopakka: 23 korttia; poistopino: ruutu 2. Huippukortit: {hidden(H_FI, 3)}; "
    f"rivi 2: {hidden(H_FI, 6)}; rivi 3: {hidden(H_FI, 4)}, pata 7, {hidden(H_FI, 4)}; "
    "alin rivi: pata 3, pata 5, pata 4, ruutukuningas, hertta 8, risti 7, pata 9.",
    "ca": f"Pila per robar: 23 cartes; pila de descart: 2 de diamants. Cims: {hidden(H_CA, 3)}; "
    f"fila 2: {hidden(H_CA, 6)}; fila 3: {hidden(H_CA, 4)}, 7 de piques, {hidden(H_CA, 4)}; "
    "fila inferior: 3 de piques, 5 de piques, 4 de piques, rei de diamants, 8 de cors, "
    "7 de trèvols, 9 de piques.",
    "en": f"Stock: 23 cards; discard: 2 of diamonds. Peaks: {hidden(H_EN, 3)}; row 2: "
    f"{hidden(H_EN, 6)}; row 3: {hidden(H_EN, 4)}, 7 of spades, {hidden(H_EN, 4)}; bottom row: "
    "3 of spades, 5 of spades, 4 of spades, king of diamonds, 8 of hearts, 7 of clubs, 9 of spades.",
}


@pytest.mark.parametrize("lang", ["fi", "ca", "en"])
def test_description_of_the_example_before_and_after(lang: str) -> None:
    game = example_game()
    assert describe(game, lang) == START[lang]
    for pos in (K_CLUBS, A_SPADES, TWO_DIAMONDS):
        game.play(pos)
    assert describe(game, lang) == AFTER[lang]


@pytest.mark.parametrize(
    ("label", "fi", "ca", "en"),
    [
        ("10♥", "hertta 10", "10 de cors", "10 of hearts"),
        ("J♦", "ruutusotamies", "valet de diamants", "jack of diamonds"),
        ("Q♠", "patarouva", "dama de piques", "queen of spades"),
        ("K♣", "ristikuningas", "rei de trèvols", "king of clubs"),
        ("A♥", "herttaässä", "as de cors", "ace of hearts"),
    ],
)
def test_card_names(label: str, fi: str, ca: str, en: str) -> None:
    card = Card.parse(label)
    assert (card_name(card, "fi"), card_name(card, "ca"), card_name(card, "en")) == (fi, ca, en)


def test_one_card_left_in_the_stock_is_singular() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    for _ in range(22):
        game.draw()
    assert describe(game, "en").startswith("Stock: 1 card; discard: 9 of hearts.")
    assert describe(game, "fi").startswith("Nostopakka: 1 kortti; poistopino: hertta 9.")
    assert describe(game, "ca").startswith("Pila per robar: 1 carta; pila de descart: 9 de cors.")


def test_a_won_board_reads_every_row_empty() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    line = find_win(Game.new("TP1-E-AAAAAAB"))
    assert line is not None
    for action in line:
        game.apply(action)
    assert describe(game, "en").endswith(
        "Peaks: empty; row 2: empty; row 3: empty; bottom row: empty."
    )
    assert describe(game, "fi").endswith(
        "Huippukortit: tyhjä; rivi 2: tyhjä; rivi 3: tyhjä; alin rivi: tyhjä."
    )
    assert describe(game, "ca").endswith(
        "Cims: buida; fila 2: buida; fila 3: buida; fila inferior: buida."
    )


def test_an_empty_stock_reads_zero_cards() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    while game.stock_size:
        game.draw()
    assert describe(game, "en").startswith("Stock: 0 cards; discard: 7 of spades.")
    assert describe(game, "fi").startswith("Nostopakka: 0 korttia; poistopino: pata 7.")
    assert describe(game, "ca").startswith(
        "Pila per robar: 0 cartes; pila de descart: 7 de piques."
    )


COVERED = {
    "en": "{} (under another card)",
    "fi": "{} (toisen kortin alla)",
    "ca": "{} (sota una altra carta)",
}


@pytest.mark.parametrize("lang", sorted(COVERED))
def test_open_peaks_names_every_card_and_says_which_are_still_covered(lang: str) -> None:
    game = Game.new("TP1-E-AAAAAAB-O")
    cards = game.deal.tableau
    text = describe(game, lang)
    peaks = ", ".join(COVERED[lang].format(card_name(cards[pos], lang)) for pos in range(3))
    assert peaks in text
    bottom = ", ".join(card_name(cards[pos], lang) for pos in range(18, 28))
    assert text.rstrip(".").endswith(bottom)
    assert text.count(COVERED[lang].format("")) == 18  # all but the bottom row's ten
