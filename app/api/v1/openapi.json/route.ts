import { NextResponse } from 'next/server';
import { withApi } from '@/lib/api/with-api';
import { openApiDocument } from '@/lib/api/openapi';

export const GET = withApi({}, async () => NextResponse.json(openApiDocument));
