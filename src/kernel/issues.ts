import type { Issue } from '../openapi/validate.js';
import { echo } from './echo.js';

/**
 * Issues as one human sentence for an Error body. A name may be the
 * client's own (a property the schema does not allow), so every name is
 * quoted through `echo`.
 */
export function formatIssues(issues: readonly Issue[]): string {
  return issues
    .map((i) => {
      const subject =
        i.in === 'query' ? `Query parameter ${echo(i.name)}`
        : i.in === 'path' ? `Path parameter ${echo(i.name)}`
        : i.in === 'header' ? `Header ${echo(i.name)}`
        : i.in === 'body' ?
          i.name ?
            `Request body field ${echo(i.name.replace(/\//g, '.'))}`
          : 'Request body'
        : `Record ${i.in}${i.name ? ` field ${echo(i.name.replace(/\//g, '.'))}` : ''}`;
      return `${subject} ${i.message}.`;
    })
    .join(' ');
}
