// Grouping into a Map of lists by appending in place: a copy of the list per item
// (`map.set(k, [...(map.get(k) ?? []), v])`) is quadratic, and a hostile package brings
// thousands of tools or diagnostics under one key.

/** Appends `value` to the list of `key` in `groups`, starting the list if there is none. */
export function addToGroup<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const list = groups.get(key);
  if (list) list.push(value);
  else groups.set(key, [value]);
}
