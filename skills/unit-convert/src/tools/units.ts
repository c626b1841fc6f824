// Unit table shared by the two tools. Factors convert to the dimension's base unit
// (metre, kilogram, litre, metre/second, square metre, byte, second).
export type Unit = { dimension: string; factor: number; names: string[] };

export const UNITS: Unit[] = [
  { dimension: 'length', factor: 1, names: ['m', 'meter', 'metre', 'meters', 'metres'] },
  { dimension: 'length', factor: 1e-3, names: ['mm', 'millimeter', 'millimetre'] },
  { dimension: 'length', factor: 1e-2, names: ['cm', 'centimeter', 'centimetre'] },
  { dimension: 'length', factor: 1e3, names: ['km', 'kilometer', 'kilometre'] },
  { dimension: 'length', factor: 0.0254, names: ['in', 'inch', 'inches'] },
  { dimension: 'length', factor: 0.3048, names: ['ft', 'foot', 'feet'] },
  { dimension: 'length', factor: 0.9144, names: ['yd', 'yard', 'yards'] },
  { dimension: 'length', factor: 1609.344, names: ['mi', 'mile', 'miles'] },
  { dimension: 'length', factor: 1852, names: ['nmi', 'nautical_mile'] },
  { dimension: 'mass', factor: 1, names: ['kg', 'kilogram', 'kilograms'] },
  { dimension: 'mass', factor: 1e-3, names: ['g', 'gram', 'grams'] },
  { dimension: 'mass', factor: 1e-6, names: ['mg', 'milligram'] },
  { dimension: 'mass', factor: 1000, names: ['t', 'tonne', 'metric_ton'] },
  { dimension: 'mass', factor: 0.45359237, names: ['lb', 'pound', 'pounds'] },
  { dimension: 'mass', factor: 0.028349523125, names: ['oz', 'ounce', 'ounces'] },
  { dimension: 'mass', factor: 6.35029318, names: ['st', 'stone'] },
  { dimension: 'volume', factor: 1, names: ['l', 'L', 'liter', 'litre', 'liters', 'litres'] },
  { dimension: 'volume', factor: 1e-3, names: ['ml', 'mL', 'milliliter', 'millilitre'] },
  { dimension: 'volume', factor: 1000, names: ['m3', 'cubic_meter'] },
  { dimension: 'volume', factor: 3.785411784, names: ['gal', 'gallon', 'us_gallon'] },
  { dimension: 'volume', factor: 4.54609, names: ['imp_gal', 'imperial_gallon'] },
  { dimension: 'volume', factor: 0.946352946, names: ['qt', 'quart'] },
  { dimension: 'volume', factor: 0.2365882365, names: ['cup', 'us_cup'] },
  { dimension: 'volume', factor: 0.0295735295625, names: ['fl_oz', 'fluid_ounce'] },
  { dimension: 'speed', factor: 1, names: ['m/s', 'mps'] },
  { dimension: 'speed', factor: 1000 / 3600, names: ['km/h', 'kph', 'kmh'] },
  { dimension: 'speed', factor: 0.44704, names: ['mph', 'mi/h'] },
  { dimension: 'speed', factor: 1852 / 3600, names: ['kn', 'knot', 'knots'] },
  { dimension: 'area', factor: 1, names: ['m2', 'square_meter'] },
  { dimension: 'area', factor: 1e6, names: ['km2', 'square_kilometer'] },
  { dimension: 'area', factor: 1e4, names: ['ha', 'hectare'] },
  { dimension: 'area', factor: 4046.8564224, names: ['acre', 'acres'] },
  { dimension: 'area', factor: 0.09290304, names: ['ft2', 'square_foot'] },
  { dimension: 'data', factor: 1, names: ['B', 'byte', 'bytes'] },
  { dimension: 'data', factor: 0.125, names: ['bit', 'bits'] },
  { dimension: 'data', factor: 1e3, names: ['kB', 'KB', 'kilobyte'] },
  { dimension: 'data', factor: 1e6, names: ['MB', 'megabyte'] },
  { dimension: 'data', factor: 1e9, names: ['GB', 'gigabyte'] },
  { dimension: 'data', factor: 1e12, names: ['TB', 'terabyte'] },
  { dimension: 'data', factor: 1024, names: ['KiB', 'kibibyte'] },
  { dimension: 'data', factor: 1024 ** 2, names: ['MiB', 'mebibyte'] },
  { dimension: 'data', factor: 1024 ** 3, names: ['GiB', 'gibibyte'] },
  { dimension: 'data', factor: 1024 ** 4, names: ['TiB', 'tebibyte'] },
  { dimension: 'time', factor: 1, names: ['s', 'sec', 'second', 'seconds'] },
  { dimension: 'time', factor: 1e-3, names: ['ms', 'millisecond'] },
  { dimension: 'time', factor: 60, names: ['min', 'minute', 'minutes'] },
  { dimension: 'time', factor: 3600, names: ['h', 'hr', 'hour', 'hours'] },
  { dimension: 'time', factor: 86400, names: ['d', 'day', 'days'] },
  { dimension: 'time', factor: 604800, names: ['wk', 'week', 'weeks'] },
];

/** Temperatures are affine, not factors: handled separately. */
export const TEMPERATURES: Record<string, { toK: (v: number) => number; fromK: (k: number) => number }> = {
  degC: { toK: (v) => v + 273.15, fromK: (k) => k - 273.15 },
  degF: { toK: (v) => ((v - 32) * 5) / 9 + 273.15, fromK: (k) => ((k - 273.15) * 9) / 5 + 32 },
  K: { toK: (v) => v, fromK: (k) => k },
};
export const TEMPERATURE_ALIASES: Record<string, string> = { C: 'degC', '°C': 'degC', celsius: 'degC', F: 'degF', '°F': 'degF', fahrenheit: 'degF', kelvin: 'K' };

export function findUnit(name: string): Unit | undefined {
  return UNITS.find((u) => u.names.includes(name)) ?? UNITS.find((u) => u.names.some((n) => n.toLowerCase() === name.toLowerCase()));
}
