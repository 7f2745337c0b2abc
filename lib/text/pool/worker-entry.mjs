// Worker threads do not inherit the tsx loader: register it in this thread, then load the worker.
import { register } from 'tsx/esm/api'
register()
await import('./worker.ts')
