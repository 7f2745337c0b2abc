// npm run train -- emotion-multilingual: the non-English models share one script, training/multilingual.ts
await import('./multilingual.js')
export {}
