import { createHash } from 'node:crypto';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { safeRegExpEngine } from '../../safe-regex';
import { isRecord, type JsonRecord } from '../json';
import { addCrdFormats } from '../registry/formats';
import { newAjv } from '../registry/lazy-ajv';
import { prepareForValidation } from '../registry/schema-prep';
import type { CrdRecord, CrdVersion } from './crd-types';

const MAX_CACHED = 256;

/** A CRD version's schema as the validator runs it: metadata is checked as ObjectMeta elsewhere, not here. */
export function crdValidationSchema(version: CrdVersion): JsonRecord {
  const schema = structuredClone(version.schema);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  properties.apiVersion = { type: 'string' };
  properties.kind = { type: 'string' };
  properties.metadata = { type: 'object' };
  schema.properties = properties;
  prepareForValidation(schema);
  return schema;
}

/**
 * Compiled validators of CRD versions, shared by every organization: keyed by a hash of the schema, so
 * two organizations uploading the same CRD share one, and bounded so uploads cannot grow memory forever.
 */
export class CrdValidators {
  private ajvInstance: Ajv | undefined;
  private readonly cache = new Map<string, { validate: ValidateFunction; schema: JsonRecord }>();
  private readonly keys = new WeakMap<object, string>();

  /**
   * Created on first use: most runs (and every CLI run without --crd) compile no CRD. User patterns run on the
   * linear-time engine (issue 16): none can hold the event loop, whatever its shape.
   */
  private get ajv(): Ajv {
    if (!this.ajvInstance) {
      this.ajvInstance = newAjv({
        allErrors: true,
        strict: false,
        logger: false,
        validateFormats: true,
        code: { regExp: safeRegExpEngine },
      });
      addCrdFormats(this.ajvInstance);
    }
    return this.ajvInstance;
  }

  validatorFor(crd: CrdRecord, version: CrdVersion): ValidateFunction {
    let key = this.keys.get(version.schema);
    if (key === undefined) {
      const digest = createHash('sha256').update(JSON.stringify(version.schema)).digest('hex');
      key = `${crd.group}/${version.name}/${crd.kind}#${digest}`;
      this.keys.set(version.schema, key);
    }
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.validate;
    }
    const schema = crdValidationSchema(version);
    const validate = this.ajv.compile(schema);
    this.cache.set(key, { validate, schema });
    if (this.cache.size > MAX_CACHED) {
      const [oldestKey, oldest] = this.cache.entries().next().value ?? [];
      if (oldestKey !== undefined && oldest) {
        this.cache.delete(oldestKey);
        this.ajv.removeSchema(oldest.schema);
      }
    }
    return validate;
  }
}
