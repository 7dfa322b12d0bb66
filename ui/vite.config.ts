// The operator console is built once (by `npm install` through `postprepare`, or `npm run build:ui`)
// into ui/dist, which the server serves at `/`. Everything is bundled: no CDN, works offline.
// Run as `vite build ui`, so the root (and `dist`) is this folder.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  base: "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // Libraries in chunks of their own: a change to our code leaves them cached.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "xyflow", test: /node_modules[\\/](@xyflow|d3-[a-z]+|zustand)[\\/]/ },
            {
              name: "forms",
              test: /node_modules[\\/](@rjsf|ajv|ajv-formats|lodash|lodash-es)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npx vite ui` while developing: API calls go to a `yardmaster serve` on the default port.
    proxy: {
      "/api": "http://127.0.0.1:8420",
      "/plugins": "http://127.0.0.1:8420",
    },
  },
});
