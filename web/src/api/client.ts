// The app's only door to the server: same-origin fetch of the public HTTP API with the session
// cookie. Errors arrive in the one error shape ({ error, message }) and become ApiError.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function urlOf(path: string, query?: RequestOptions["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function errorOf(res: Response): Promise<ApiError> {
  let body: any = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON: the status speaks */
  }
  const code = typeof body?.error === "string" ? body.error : `HTTP_${res.status}`;
  const message = typeof body?.message === "string" ? body.message : res.statusText || `HTTP ${res.status}`;
  return new ApiError(res.status, code, message, body);
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const init: RequestInit = { method, credentials: "same-origin", signal: opts.signal, headers: { ...opts.headers } };
  // A file as it is (a table import): its type is the content type.
  if (body instanceof FormData || body instanceof Blob) init.body = body;
  else if (typeof body === "string") {
    // A JSON document as the user gave it (an imported project.json): sent without re-encoding.
    init.body = body;
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const res = await fetch(urlOf(path, opts.query), init);
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  return (type.includes("json") ? await res.json() : await res.text()) as T;
}

export const get = <T>(path: string, opts?: RequestOptions) => api<T>("GET", path, undefined, opts);
export const post = <T>(path: string, body?: unknown, opts?: RequestOptions) => api<T>("POST", path, body ?? {}, opts);
export const put = <T>(path: string, body?: unknown, opts?: RequestOptions) => api<T>("PUT", path, body ?? {}, opts);
export const patch = <T>(path: string, body?: unknown, opts?: RequestOptions) => api<T>("PATCH", path, body ?? {}, opts);
export const del = <T>(path: string, opts?: RequestOptions) => api<T>("DELETE", path, undefined, opts);

/** Words for an error, never a raw JSON dump. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A multipart upload with progress (fetch cannot report upload progress; XMLHttpRequest can). */
export function upload<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, "NETWORK", "The upload did not reach the server"));
    xhr.onload = () => {
      let body: any = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      reject(new ApiError(xhr.status, typeof body?.error === "string" ? body.error : `HTTP_${xhr.status}`, typeof body?.message === "string" ? body.message : `HTTP ${xhr.status}`, body));
    };
    xhr.send(form);
  });
}
