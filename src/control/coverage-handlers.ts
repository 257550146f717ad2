import { ApiError } from '../kernel/errors.js';
import { buildCoverage } from './coverage.js';
import { coverageJunit, coverageMarkdown, formatOfAccept, type CoverageFormat } from './coverage-formats.js';
import { apisOf, servedPathsOf } from './apis.js';
import { TextAnswer, type ControlContext, type HandlerGroup } from './handler-types.js';

const TEXT: Record<Exclude<CoverageFormat, 'json'>, { type: string; write: typeof coverageMarkdown }> = {
  markdown: { type: 'text/markdown; charset=utf-8', write: coverageMarkdown },
  junit: { type: 'application/xml; charset=utf-8', write: coverageJunit },
};

/**
 * `GET /coverage`: the counts kept beside the journal, of the workspace the
 * journal's operations would read (`X-Sandbox-Key`, or the API key that
 * opened the call), or of every journal with `all=true` and the admin token.
 */
export function coverageHandlers({ deps, workspaceOf }: ControlContext): HandlerGroup<'readCoverage'> {
  const pathOf = servedPathsOf(apisOf(deps));
  return {
    readCoverage: async ({ key, query, byApiKey, accept }) => {
      const all = query.all === true;
      if (all && byApiKey) throw ApiError.of('forbidden', "An API key reads its own workspace's coverage only; all=true needs the admin token.");
      if (all && key !== undefined) throw ApiError.of('invalid_request', 'all=true counts every workspace: leave X-Sandbox-Key out.');
      const workspace = all ? undefined : workspaceOf(key);
      const report = buildCoverage(deps.operations, await deps.journal.counts(workspace), { workspace, failUnder: query['fail-under'], pathOf });
      const format = query.format ?? formatOfAccept(accept);
      return format === 'json' ? report : new TextAnswer(TEXT[format].type, TEXT[format].write(report));
    },
  };
}
