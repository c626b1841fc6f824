import { handleAuthRequest } from '@/lib/api';

export const dynamic = 'force-dynamic';

// Auth.js on the URL the browser used (127.0.0.1 or localhost alike): lib/api/auth-handler.ts says why.
export const GET = (req: Request) => handleAuthRequest(req);
export const POST = (req: Request) => handleAuthRequest(req);
