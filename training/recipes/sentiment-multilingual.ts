// npm run train -- sentiment-multilingual: the non-English models share one script, training/recipes/multilingual.ts
await import('./multilingual.js')
export {}
