import { Expose, Type } from 'class-transformer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, type BigtableMapper, type Repository } from '../../../src/index.js';
import { closeMapper, openMapper, rawRow } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';

class Geo {
  lat!: number;
  lng!: number;
  isNorthern(): boolean {
    return this.lat >= 0;
  }
}

class Address {
  street?: string;
  city?: string;
  zip?: number;
  verified?: boolean;
  @Type(() => Geo) geo?: Geo;
  @Type(() => Date) since?: Date;
  label(): string {
    return `${this.street ?? '?'}, ${this.city ?? '?'}`;
  }
}

class Contact {
  @Expose() email?: string;
  @Expose({ name: 'tel' }) phone?: string;
}

/** Entities bound to a fresh table (one emulator serves the whole run). */
function embeddedEntities(table: string) {
  @Entity({ table })
  @Family('p')
  class Customer {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'p', type: 'string' }) name?: string;
    @Column({ family: 'p', type: Address }) work?: Address | null;
    @Column({
      family: 'p',
      type: Address,
      layout: 'flatten',
      fields: ['street', 'city', 'zip', 'verified', 'geo', 'since'],
    })
    home?: Address | null;
    @Column({ family: 'p', qualifier: 'c', type: Contact, layout: 'flatten', fieldPrefix: 'contact:' })
    contact?: Contact | null;
  }
  return { Customer };
}

const table = uniqueTableId('embedded');
const { Customer } = embeddedEntities(table);
type Customer = InstanceType<typeof Customer>;

let mapper: BigtableMapper;
let customers: Repository<Customer>;

beforeAll(async () => {
  mapper = openMapper([Customer]);
  await mapper.sync();
  customers = mapper.getRepository(Customer);
});

afterAll(() => closeMapper(mapper, [table]));

const address = (fields: Partial<Address>): Address => Object.assign(new Address(), fields);
const full = (): Address =>
  address({
    street: 'Main 1',
    city: 'Oslo',
    zip: 150,
    verified: true,
    geo: Object.assign(new Geo(), { lat: 59.91, lng: 10.75 }),
    since: new Date('2019-06-01T12:00:00.000Z'),
  });
const stored = async (id: string): Promise<Record<string, string>> => {
  const row = await rawRow(mapper, table, id);
  return Object.fromEntries((row?.cells ?? []).map((c) => [c.qualifier, c.value.toString()]));
};

describe('embedded objects (emulator)', () => {
  it('round-trips both layouts to class instances with nested classes and Dates', async () => {
    await customers.save(
      Object.assign(new Customer(), {
        id: 'c1',
        name: 'Ada',
        work: full(),
        home: full(),
        contact: Object.assign(new Contact(), { email: 'a@x.org', phone: '+47' }),
      }),
    );
    const c = await customers.findOneOrFail({ id: 'c1' });
    for (const value of [c.work, c.home]) {
      expect(value).toBeInstanceOf(Address);
      expect(value?.geo).toBeInstanceOf(Geo);
      expect(value?.since).toBeInstanceOf(Date);
      expect(value?.geo?.isNorthern()).toBe(true);
      expect(value?.label()).toBe('Main 1, Oslo');
      expect(value).toEqual(full());
    }
    expect(c.contact).toBeInstanceOf(Contact);
    expect(c.contact).toEqual(Object.assign(new Contact(), { email: 'a@x.org', phone: '+47' }));
  });

  it('stores json as one cell and flatten as one JSON cell per field under <qualifier>.<field> or the prefix', async () => {
    expect(await stored('c1')).toEqual({
      name: 'Ada',
      work: JSON.stringify({
        street: 'Main 1',
        city: 'Oslo',
        zip: 150,
        verified: true,
        geo: { lat: 59.91, lng: 10.75 },
        since: '2019-06-01T12:00:00.000Z',
      }),
      'home.street': '"Main 1"',
      'home.city': '"Oslo"',
      'home.zip': '150',
      'home.verified': 'true',
      'home.geo': '{"lat":59.91,"lng":10.75}',
      'home.since': '"2019-06-01T12:00:00.000Z"',
      'contact:email': '"a@x.org"',
      'contact:tel': '"+47"',
    });
  });

  it('save writes only the defined fields; replace and null delete the others', async () => {
    await customers.save(Object.assign(new Customer(), { id: 'c1', home: address({ city: 'Bergen' }) }));
    expect((await customers.findOneOrFail({ id: 'c1' })).home).toEqual({ ...full(), city: 'Bergen' });
    await customers.update({ id: 'c1' }, { contact: null });
    const afterNull = await stored('c1');
    expect(Object.keys(afterNull).filter((q) => q.startsWith('contact:'))).toEqual([]);
    expect((await customers.findOneOrFail({ id: 'c1' })).contact).toBeUndefined();
    await customers.replace(
      Object.assign(new Customer(), { id: 'c1', name: 'Ada', home: address({ street: 'New 2' }) }),
    );
    expect(await stored('c1')).toEqual({ name: 'Ada', 'home.street': '"New 2"' });
    const replaced = await customers.findOneOrFail({ id: 'c1' });
    expect(replaced.home).toBeInstanceOf(Address);
    expect({ ...replaced.home }).toEqual({ street: 'New 2' });
    expect(replaced.work).toBeUndefined();
  });

  it('select reads only the chosen layout’s cells', async () => {
    await customers.save(Object.assign(new Customer(), { id: 'c2', name: 'Bo', work: full(), home: full() }));
    const home = await customers.findOneOrFail({ id: 'c2' }, { select: ['home'] });
    expect(home.home).toEqual(full());
    expect([home.work, home.name, home.contact]).toEqual([undefined, undefined, undefined]);
    const work = await customers.findOneOrFail({ id: 'c2' }, { select: ['work', 'name'] });
    expect(work.home).toBeUndefined();
    expect(work.work).toBeInstanceOf(Address);
    const scanned: Customer[] = [];
    for await (const c of customers.iterate({ select: ['home'] })) scanned.push(c);
    expect(scanned.map((c) => [c.id, c.home?.street])).toEqual([
      ['c1', 'New 2'],
      ['c2', 'Main 1'],
    ]);
  });
});
