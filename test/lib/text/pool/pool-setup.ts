// The pool tests' set-up: the fixture kinds registered to run in the text workers, and the quiet log and
// load context the tests' registries load with.
import '../../../helper.js'
import { registerLoader } from '../../../../lib/serving/registry.js'
import { POOL_FIXTURE, poolFixtureLoader, SHARED_PROBE, sharedProbeLoader } from './pool-fixture.js'

// the fixture kind runs in the workers from here on (helper.ts registered it main-thread only)
registerLoader('fixture', poolFixtureLoader, POOL_FIXTURE)
registerLoader('shared-probe', sharedProbeLoader, SHARED_PROBE)

export const quiet = () => {}
export const ctx = { imageMaxPixels: 1_000_000 }
