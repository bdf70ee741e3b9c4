// ApiError (a non-2xx answer of the ingest API) is the typed client's; ensureOk is for a raw Response.
import { ApiError } from '../clients/client';

export { ApiError };

/** Turns a non-2xx response with Keel's `{ error: { code, message } }` body into an ApiError. */
export async function ensureOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const text = await response.text();
  let code = 'http_error';
  let message = text || response.statusText;
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // not JSON: keep the raw text
  }
  throw new ApiError(response.status, code, `${response.status} ${code}: ${message}`);
}
