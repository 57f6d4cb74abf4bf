// Server-sent events read with fetch ("event: name\ndata: json\n\n" blocks), so the ID token travels in the
// Authorization header, never the URL. Shared by a run's page and the operation board.

export async function readEvents(url, headers, signal, onEvent) {
  const response = await fetch(url, { headers, signal });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n/g, "\n");
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const name = /^event: ?(.*)$/m.exec(block)?.[1];
      const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
      if (name && data) onEvent(name, JSON.parse(data));
    }
  }
}
