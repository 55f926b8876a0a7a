// Whether a client takes a gzip-compressed answer (RFC 9110 §12.5.3): `gzip` or `*` listed with a
// weight above zero. "gzip;q=0" refuses it, and so does an absent header.

export function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding");
  if (!header) return false;
  let any: boolean | undefined;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weighted = q === undefined || Number(q.slice(2)) > 0;
    if (name === "gzip" || name === "x-gzip") return weighted;
    if (name === "*") any = weighted;
  }
  return any ?? false;
}
