import { NextResponse } from 'next/server';
import { withApi, openApiDocument } from '@/lib/api';

export const GET = withApi({}, async () => NextResponse.json(openApiDocument));
