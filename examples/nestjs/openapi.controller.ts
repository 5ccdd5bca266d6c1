import { Controller, Get } from '@nestjs/common';
import { toOpenApiSchema, type OpenApiSchemaObject } from '../../src/nest/index.js';
import { Address, Customer, Order } from './customer.entities.js';
import { PageView } from './page-view.entity.js';

const ENTITIES = { PageView, Customer, Order, Address } as const;

/** A JSON request body that is a component schema. */
function body(name: string): object {
  return {
    required: true,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Create` } } },
  };
}

/** A JSON answer that is a component schema. */
function answer(description: string, schema: object): object {
  return { description, content: { 'application/json': { schema } } };
}

/**
 * The application's OpenAPI 3.1 document, generated from the entities: each
 * entity's create body and read form (`toOpenApiSchema`) as component
 * schemas, and the routes that take and return them. Nothing is written
 * twice: a column's type, its optionality and its zod validator live on the
 * entity only.
 *
 * @example
 * ```ts
 * const doc = await (await fetch(`${base}/openapi.json`)).json();
 * doc.components.schemas.OrderCreate.required; // ['customerId', 'orderId']: the key parts
 * ```
 */
@Controller()
export class OpenApiController {
  /** The document. @example `GET /openapi.json` */
  @Get('openapi.json')
  document(): object {
    const schemas: Record<string, OpenApiSchemaObject> = {};
    for (const [name, entity] of Object.entries(ENTITIES)) {
      schemas[`${name}Create`] = toOpenApiSchema(entity, { for: 'create' });
      schemas[name] = toOpenApiSchema(entity, { for: 'read' });
    }
    const ref = (name: string): object => ({ $ref: `#/components/schemas/${name}` });
    return {
      openapi: '3.1.0',
      info: { title: 'bigtable-mapper NestJS example', version: '1.0.0' },
      paths: {
        '/page-views': {
          post: { requestBody: body('PageView'), responses: { 201: answer('the view', ref('PageView')) } },
        },
        '/customers': {
          post: { requestBody: body('Customer'), responses: { 201: answer('the customer', ref('Customer')) } },
        },
        '/customers/{customerId}/orders': {
          post: { requestBody: body('Order'), responses: { 201: answer('the order', ref('Order')) } },
        },
        '/customers/{customerId}/addresses': {
          post: { requestBody: body('Address'), responses: { 201: answer('the address', ref('Address')) } },
        },
        '/customers/{customerId}': {
          get: {
            responses: {
              200: answer('the customer aggregate, read in one scan', {
                type: 'object',
                properties: {
                  customer: ref('Customer'),
                  orders: { type: 'array', items: ref('Order') },
                  addresses: { type: 'array', items: ref('Address') },
                  unknownRows: { type: 'integer', minimum: 0 },
                },
                required: ['customer', 'orders', 'addresses', 'unknownRows'],
              }),
              404: { description: 'no such customer' },
            },
          },
        },
      },
      components: { schemas },
    };
  }
}
