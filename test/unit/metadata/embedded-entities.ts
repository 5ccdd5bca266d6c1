import { Expose, Type } from 'class-transformer';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';

/** A nested value object (hydrated by class-transformer). @example `Object.assign(new Geo(), { lat: 1, lng: 2 })` */
export class Geo {
  lat!: number;
  lng!: number;
  isNorthern(): boolean {
    return this.lat >= 0;
  }
}

/** An address with a nested class and a Date. @example `Object.assign(new Address(), { street: 'Main 1', city: 'Oslo' })` */
export class Address {
  street?: string;
  city?: string;
  zip?: number;
  @Type(() => Geo) geo?: Geo;
  @Type(() => Date) since?: Date;
  label(): string {
    return `${this.street ?? '?'}, ${this.city ?? '?'}`;
  }
}

/** Fields known from @Expose(), one renamed in its plain form. @example `Object.assign(new Exposed(), { a: 1, b: 'x' })` */
export class Exposed {
  @Expose() a?: number;
  @Expose({ name: 'bee' }) b?: string;
}

/** Both layouts of the same class, a custom prefix, and exposed-field inference. */
@Entity({ table: 'profiles' })
@Family('p')
export class Profile {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'p', type: Address }) work?: Address | null;
  @Column({ family: 'p', type: Address, layout: 'flatten', fields: ['street', 'city', 'zip', 'geo', 'since'] })
  home?: Address | null;
  @Column({
    family: 'p',
    qualifier: 'bill',
    type: Address,
    layout: 'flatten',
    fields: ['street', 'city'],
    fieldPrefix: 'b:',
  })
  billing?: Address | null;
  @Column({ family: 'p', type: Exposed, layout: 'flatten' }) exposed?: Exposed | null;
  @Column({ family: 'p', type: 'string' }) name?: string;
}
