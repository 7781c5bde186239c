/**
 * A gob stream written by hand, type definitions and all, for bodies no Go struct would produce
 * (declared lengths far past the bytes, unknown fields of any type, wide definitions): the
 * body-cost bench's worst cases and the tests that prove the decoder refuses them early.
 */
import { GobWriter } from '../src/http/gob/primitives';
import { BUILTIN_TYPE_IDS, WIRE_TYPE_FIELDS } from '../src/http/gob/types';

export const GOB_TYPES = BUILTIN_TYPE_IDS;

export class GobStream {
  private readonly output = new GobWriter(1024);

  /** One message: its byte length, then what `write` puts in it. */
  private message(write: (message: GobWriter) => void): this {
    const message = new GobWriter(1024);
    write(message);
    this.output.uint(message.size);
    this.output.raw(message.view());
    return this;
  }

  private definition(id: number, kind: number, write: (message: GobWriter) => void): this {
    return this.message((message) => {
      message.int(-id);
      message.uint(kind + 1);
      write(message);
      message.uint(0); // end of wireType
    });
  }

  private static commonType(message: GobWriter, name: string, id: number): void {
    message.uint(1); // CommonType
    message.uint(1); // CommonType.Name
    message.string(name);
    message.uint(1); // CommonType.Id
    message.int(id);
    message.uint(0);
  }

  /** `type name struct { fields }`, fields as [Go name, type id]. */
  struct(id: number, name: string, fields: readonly (readonly [string, number])[]): this {
    return this.definition(id, WIRE_TYPE_FIELDS.struct, (message) => {
      GobStream.commonType(message, name, id);
      if (fields.length > 0) {
        message.uint(1); // structType.Field
        message.uint(fields.length);
        for (const [fieldName, fieldId] of fields) {
          message.uint(1);
          message.string(fieldName);
          message.uint(1);
          message.int(fieldId);
          message.uint(0);
        }
      }
      message.uint(0);
    });
  }

  /** `type name []elem`. */
  slice(id: number, name: string, elem: number): this {
    return this.definition(id, WIRE_TYPE_FIELDS.slice, (message) => {
      GobStream.commonType(message, name, id);
      message.uint(1);
      message.int(elem);
      message.uint(0);
    });
  }

  /** `type name map[key]elem`. */
  map(id: number, name: string, key: number, elem: number): this {
    return this.definition(id, WIRE_TYPE_FIELDS.map, (message) => {
      GobStream.commonType(message, name, id);
      message.uint(1);
      message.int(key);
      message.uint(1);
      message.int(elem);
      message.uint(0);
    });
  }

  /** The value message of type `id`: `write` puts its fields (deltas, values, the closing 0). */
  value(id: number, write: (message: GobWriter) => void): this {
    return this.message((message) => {
      message.int(id);
      write(message);
    });
  }

  toBuffer(): Buffer {
    return this.output.toBuffer();
  }
}
