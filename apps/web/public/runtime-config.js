// Default for `vite` dev only. The product serves its own /runtime-config.js
// built from API_URL, so one build serves any deployment.
window.__BALCAO__ = {"apiUrl":"http://localhost:8080"};
