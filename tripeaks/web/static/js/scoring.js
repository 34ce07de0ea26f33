// The scoring tables' rows, from GET /api/rules: one place for what each event of a scoring pays, which
// the help's tables and the score's pop-up both show.

import { number, points, t } from "./i18n.js";

/** Our scoring: each event (help.scoring.* or web.scoring.*, by `words`) and its points. */
export function oursRows(rules, words) {
  return (rules ? rules.scoring : []).map(({ event, points: value }) => [t(`${words}.${event}`), points(value)]);
}

/** The traditional scoring: the start, a run's n-th card, a draw, each peak in the order emptied. */
export function traditionalRows(rules) {
  const trad = rules && rules.traditional;
  if (!trad) return [];
  return [
    [t("help.scoring.t_start"), number(trad.start)],
    [t("help.scoring.t_remove"), `${points(1)}, ${points(2)}, ${points(3)}…`],
    [t("help.scoring.t_draw"), points(trad.draw)],
    ...trad.peaks.map((value, i) => [t(`help.scoring.t_peak${i + 1}`), points(value)]),
  ];
}
