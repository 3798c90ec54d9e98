/**
 * One of a fixed set of values named by an environment variable (LOCKIN_SPARK_MODE,
 * LOCKIN_SPARK_JIT).
 *
 * Inputs: the variable's name, the accepted values (the first is named first in the error), and
 * the value an unset or empty (whitespace only) variable takes. The variable's value is trimmed.
 * Returns: the accepted value. Throws an Error naming the variable, its value and the accepted
 * values ('LOCKIN_SPARK_JIT: "c2" is not tiered or quick') for anything else.
 */
export function envChoice<T extends string>(name: string, values: readonly T[], fallback: T): T {
  const v = (process.env[name] ?? '').trim();
  if (v === '') return fallback;
  if ((values as readonly string[]).includes(v)) return v as T;
  throw new Error(`${name}: "${v}" is not ${values.join(' or ')}`);
}
