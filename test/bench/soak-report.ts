/** The soak's tables: each backend's windows, its readings after the settles, and its checks. */
import { table } from './report.js';
import type { SoakOutcome } from './soak.js';

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '');

/** One backend's windows and checks, as Markdown. */
export function renderSoak(outcome: SoakOutcome): string {
  const windows = table(
    [
      'Phase',
      'At s',
      'req/s',
      'p50 ms',
      'p99 ms',
      'RSS MB (min)',
      'RSS MB (median)',
      'RSS MB (max)',
      'fds',
      'files',
      'new keys',
      'streams dropped',
      'unexpected',
    ],
    outcome.windows.map((w) => [
      w.phase,
      String(w.atSec),
      fmt(w.rps),
      fmt(w.p50, 1),
      fmt(w.p99, 1),
      fmt(w.rssMinMb, 1),
      fmt(w.rssMb, 1),
      fmt(w.rssMaxMb, 1),
      String(w.fds),
      w.files === undefined ? '' : String(w.files),
      String(w.newKeys),
      String(w.streams),
      String(w.unexpected),
    ]),
  );
  const { baseline, after } = outcome;
  const settles = table(
    ['Reading', 'when', 'RSS MB', 'fds'],
    [
      ['baseline', 'after the warm-up and the settle', fmt(baseline.rssMb, 1), String(baseline.fds)],
      ['after', 'after the load and the settle', fmt(after.rssMb, 1), String(after.fds)],
    ],
  );
  const checks = table(
    ['Check', 'Result', 'detail'],
    outcome.checks.map((c) => [
      c.name,
      !c.judged ? 'not judged'
      : c.pass ? 'PASS'
      : 'FAIL',
      c.detail,
    ]),
  );
  const totals = `${outcome.newKeys} new keys, ${outcome.acknowledged} acknowledged writes checked`;
  return `### ${outcome.backend}\n\n${windows}\n\n${settles}\n\n${checks}\n\n${totals}\n`;
}

/** Every failed check of every backend, one line each: the soak's failure message. */
export function failures(outcomes: SoakOutcome[]): string[] {
  return outcomes.flatMap((o) => o.checks.filter((c) => c.judged && !c.pass).map((c) => `${o.backend}: ${c.name}: FAIL: ${c.detail}`));
}
