import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Playwright drives `next dev` on 127.0.0.1; without this the HMR socket is refused and
  // the page never hydrates.
  allowedDevOrigins: ['127.0.0.1'],
  // Native and engine-adjacent packages stay out of the server bundle.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', 'pg'],
};

export default nextConfig;
