/** One event of a `text/event-stream`, as a client reads it. */
export interface ServerSentEvent {
  /** The `event:` field; `message` when there was none. */
  event: string;
  /** The `data:` lines, joined by line breaks. */
  data: string;
  /** The `id:` field, when the event had one (a journal entry's id): what `Last-Event-ID` sends back to resume after it. */
  id?: string;
}

/**
 * A reader of the Server-Sent Events format (HTML standard, "Parsing an
 * event stream", lines ended by LF or CRLF), fed text chunk by chunk as it arrives: whole events go to
 * `onEvent`, comments and unknown fields are dropped. Used by the control
 * client in Node and by the QA console in the browser, which reads the
 * stream with `fetch()` because `EventSource` cannot send the admin token.
 */
export function createEventParser(onEvent: (event: ServerSentEvent) => void): (chunk: string) => void {
  let pending = '';
  let type = '';
  let data: string[] = [];
  let id: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: type || 'message', data: data.join('\n'), ...(id === undefined ? {} : { id }) });
      type = '';
      data = [];
      id = undefined;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
    // An id holding NUL is ignored, as the standard says.
    else if (field === 'id' && !value.includes('\0')) id = value;
  };
  return (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    // The last piece may be a line cut in two by the chunking.
    pending = lines.pop() ?? '';
    for (const text of lines) line(text.endsWith('\r') ? text.slice(0, -1) : text);
  };
}
