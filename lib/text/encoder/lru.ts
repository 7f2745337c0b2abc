// A bounded map that forgets the entry used least recently: the encoder's cache of recent texts.
// A Map keeps insertion order, so a hit is moved to the end and the first key is the oldest.
export class Lru<K, V> {
  private readonly map = new Map<K, V>()

  constructor (readonly capacity: number) {}

  get size (): number {
    return this.map.size
  }

  get (key: K): V | undefined {
    const v = this.map.get(key)
    if (v === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, v)
    return v
  }

  set (key: K, value: V): void {
    if (this.capacity <= 0) return
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size <= this.capacity) return
    const oldest = this.map.keys().next().value as K
    this.map.delete(oldest)
  }
}
