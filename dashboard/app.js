// The dashboard: usage of the signed-in key, a playground for every operation, and the operator's
// key administration. Plain ES modules, no framework, no CDN; the key and the admin token stay in
// session storage only. This module starts the page; the views are in the modules it imports.
import { show } from './usage.js'
import { syncInputs } from './playground.js'
import './operator.js'

syncInputs()
show(sessionStorage.getItem('view') ?? 'usage')
