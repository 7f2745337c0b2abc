// docker-compose.yml is valid and wires the service to a Redis that keeps its data.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const has = spawnSync('sh', ['-c', 'command -v docker-compose'], { encoding: 'utf8' }).status === 0

t.test(
  'docker-compose config passes',
  { skip: has ? false : 'docker-compose is not installed (apt-get install -y docker-compose)' },
  async t => {
    const r = spawnSync('docker-compose', ['config'], { cwd: root, encoding: 'utf8' })
    t.equal(r.status, 0, r.stderr)
    t.match(r.stdout, /REDIS_URL: redis:\/\/redis:6379/)
    t.match(r.stdout, /--appendonly/)
    t.match(r.stdout, /redis-data:\/data/)
  }
)
