import { handlers } from '@/lib/auth/auth';

export const dynamic = 'force-dynamic';
export const { GET, POST } = handlers;
