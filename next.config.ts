import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // `npm run dev` listens on 127.0.0.1 (docs/security.md, "Modes"): a page opened at that address
  // needs it allowed, or the HMR socket is refused and the page never hydrates.
  allowedDevOrigins: ['127.0.0.1'],
  // Native and engine-adjacent packages stay out of the server bundle.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', 'pg'],
  // No other site may frame the app (a decision button under someone else's overlay), and the
  // page's own policy keeps plugins, <base> and form targets to this origin.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'" },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
    ];
  },
};

export default nextConfig;
