/**
 * The data API's seed (spec §2.1): organizations, vendors, bills and payments that reference each other,
 * generated from a fixed seed so every run serves the same records. Ids are zero-padded so that their
 * order is the collection's order, which is the order pages walk in.
 */

import type { Bill, Organization, Payment, Vendor } from '../../client/data-api';

export interface Seed {
  organizations: Organization[];
  vendors: Vendor[];
  bills: Bill[];
  payments: Payment[];
}

/** mulberry32: a small, well-known seeded generator; the same seed gives the same data everywhere. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const day = (base: number, days: number) => new Date(base + days * 86_400_000).toISOString().slice(0, 10);

const orgNames = ['Analytical Engines LLC', 'Harbor Freight Partners', 'Maple Street Dental', 'Blue Ridge Outfitters', 'Cedar & Sons Roofing'];
const vendorWords = ['Office', 'Supply', 'Logistics', 'Cleaning', 'Software', 'Printing', 'Catering', 'Electric', 'Plumbing', 'Consulting'];
const vendorKinds = ['Co.', 'Inc.', 'LLC', 'Group', 'Services'];

export function seedData({ organizations = 3, vendorsPerOrganization = 200, bills = 10_000, seed = 20261121 } = {}): Seed {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const base = Date.UTC(2026, 0, 1);

  const orgs: Organization[] = Array.from({ length: organizations }, (_, i) => ({
    id: `org_${pad(i + 1, 4)}`,
    name: orgNames[i % orgNames.length]!,
    createdAt: new Date(base - (i + 1) * 86_400_000 * 90).toISOString(),
  }));
  const vendors: Vendor[] = [];
  for (const org of orgs) {
    for (let i = 0; i < vendorsPerOrganization; i++) {
      const name = `${pick(vendorWords)} ${pick(vendorWords)} ${pick(vendorKinds)}`;
      vendors.push({
        id: `ven_${pad(vendors.length + 1, 6)}`,
        organizationId: org.id,
        name,
        email: `billing${vendors.length + 1}@${name.split(' ')[0]!.toLowerCase()}.example`,
        paymentTermsDays: pick([15, 30, 45, 60]),
      });
    }
  }
  const billList: Bill[] = [];
  const payments: Payment[] = [];
  for (let i = 0; i < bills; i++) {
    const vendor = vendors[Math.floor(next() * vendors.length)]!;
    const created = Math.floor(next() * 300);
    const cents = 1_000 + Math.floor(next() * 2_500_000);
    const status = pick(['unpaid', 'scheduled', 'paid', 'paid', 'overdue'] as const);
    const bill: Bill = {
      id: `bill_${pad(i + 1, 7)}`,
      organizationId: vendor.organizationId,
      vendorId: vendor.id,
      invoiceNumber: `INV-${pad(Math.floor(next() * 1_000_000), 6)}`,
      amount: { value: (cents / 100).toFixed(2), currency: 'USD' },
      dueDate: day(base, created + vendor.paymentTermsDays),
      status,
      createdAt: new Date(base + created * 86_400_000).toISOString(),
    };
    billList.push(bill);
    if (status === 'scheduled' || status === 'paid') {
      payments.push({
        id: `pay_${pad(payments.length + 1, 7)}`,
        organizationId: bill.organizationId,
        billId: bill.id,
        vendorId: bill.vendorId,
        amount: bill.amount,
        status: status === 'paid' ? 'completed' : 'scheduled',
        scheduledDate: day(base, created + vendor.paymentTermsDays - 2),
      });
    }
  }
  return { organizations: orgs, vendors, bills: billList, payments };
}
