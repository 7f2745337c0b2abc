// The linter: neostandard (standard's style for TypeScript, without type information, so it is
// fast), and the architectural rules: lib/ never imports plugins/, and only lib/http/ imports Fastify.
import neostandard from 'neostandard'

export default [
  ...neostandard({
    ts: true,
    ignores: ['scratch/**', 'node_modules/**', 'test-output/**', 'data/**', 'model-store/**', 'coverage/**', '.tap/**']
  }),
  {
    rules: {
      // TypeBox's idiom: a schema and its static type share one name
      '@typescript-eslint/no-redeclare': 'off',
      // `void promise` marks a promise left to run on purpose
      'no-void': 'off',
      // loops whose condition a callback changes (a timer, an event) are flagged wrongly
      'no-unmodified-loop-condition': 'off',
      // short objects on one line, longer ones laid out as they read best
      '@stylistic/object-property-newline': 'off',
      // STYLE: lines under 120 columns, one statement a line
      '@stylistic/max-len': ['error', { code: 120, tabWidth: 2 }],
      '@stylistic/max-statements-per-line': ['error', { max: 1 }],
      'promise/param-names': ['error', { resolvePattern: '^_?resolve', rejectPattern: '^_?reject$' }]
    }
  },
  {
    // STYLE: no source file over 300 lines (tests and the dashboard's scripts too), no function
    // over 80 outside the tests (errors: npm test fails on them)
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    rules: { 'max-lines': ['error', { max: 300 }] }
  },
  {
    files: ['**/*.ts'],
    ignores: ['scratch/**', 'test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] }
  },
  {
    files: ['dashboard/**'],
    languageOptions: { globals: { Node: 'readonly', location: 'readonly', DataTransfer: 'readonly' } }
  },
  {
    // lib/ by layer: only lib/http/ speaks Fastify (route factories, language routing); the layers under
    // it (serving, runtime, stores, text and image families) never import it, nor plugins/
    files: ['lib/**'],
    ignores: ['lib/http/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/plugins/**'], message: 'lib/ never imports plugins/: move what both need into lib/.' },
            { group: ['**/http/*'], message: 'only lib/http/ and plugins/ import lib/http/: it is the layer above.' },
            {
              group: ['fastify', 'fastify-plugin', '@fastify/*', '!@fastify/error'],
              message: 'only lib/http/ imports Fastify.'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['lib/http/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/plugins/**'], message: 'lib/ never imports plugins/: move what both need into lib/.' }
          ]
        }
      ]
    }
  }
]
