import { callApi, type Capabilities } from './call-api';

export default async function api_whoami(input: { base_url: string }, capabilities: Capabilities) {
  const { status, body } = await callApi(capabilities, input.base_url, '/me');
  if (status !== 200) return { status, error: typeof body.error === 'string' ? body.error : `the API answered ${status}` };
  return { status, subject: String(body.subject), scopes: Array.isArray(body.scopes) ? body.scopes.map(String) : [] };
}
