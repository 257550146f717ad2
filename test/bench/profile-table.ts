/** Markdown tables of a CPU profile summary (cpu-profile.ts): groups by self time, then the top functions by self and by total time. */
import type { FrameShare, ProfileSummary } from './cpu-profile.js';

const percent = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '-');
/** Pipes would end a table cell. */
const cell = (text: string) => text.replaceAll('|', '\\|');

function frameTable(title: string, frames: FrameShare[], busy: number): string[] {
  return [
    `${title}:`,
    '',
    '| function | where | group | self | total |',
    '|---|---|---|--:|--:|',
    ...frames.map((f) => `| ${cell(f.name)} | ${cell(f.location) || '-'} | ${f.group} | ${percent(f.self, busy)} | ${percent(f.total, busy)} |`),
    '',
  ];
}

/** The three tables of one scenario's profile, `top` rows in each frame table; percentages are of the busy (non-idle) samples. */
export function renderProfile(title: string, summary: ProfileSummary, top = 15): string {
  const { busy, frames, groups } = summary;
  const bySelf = [...frames].sort((a, b) => b.self - a.self || b.total - a.total).slice(0, top);
  const byTotal = [...frames].sort((a, b) => b.total - a.total || b.self - a.self).slice(0, top);
  const groupRows = [...groups].sort((a, b) => b[1] - a[1]).map(([group, n]) => `| ${group} | ${percent(n, busy)} |`);
  return [
    `### ${title}`,
    '',
    `${busy} busy samples.`,
    '',
    '| group | self |',
    '|---|--:|',
    ...groupRows,
    '',
    ...frameTable('Top functions by self time', bySelf, busy),
    ...frameTable('Top functions by total time', byTotal, busy),
  ].join('\n');
}
