import { callApi, type Capabilities } from './call-api';

export default async function api_scopes(input: { base_url: string }, capabilities: Capabilities) {
  const { status, body } = await callApi(capabilities, input.base_url, '/scopes');
  if (status !== 200) return { status, error: typeof body.error === 'string' ? body.error : `the API answered ${status}` };
  return { status, scopes: Array.isArray(body.scopes) ? body.scopes.map(String) : [] };
}
