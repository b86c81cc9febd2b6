import { describe, expect, it } from 'vitest';
import type { Entity } from './entity.ts';
import { EntityStore } from './entity-store.ts';
import type { SideDataChange, SideDataExport } from './side-data.ts';
import { applySideDataChange, sideSeries, sideValue } from './side-data.ts';

// Areas of a made-up kind, declared as a domain module declares its own: a group with fields
// (`sideData.gadgets.<id>.config` / `.readings`) and a group that is one series per entity.
type Config = { level: number };
type Reading = { timestamp: number; value: number };
const CONFIG = sideValue<Config>({ group: 'gadgets', field: 'config', owner: 'gadget', schema: 'GadgetConfig' });
const READINGS = sideSeries<Reading>({ group: 'gadgets', field: 'readings', owner: 'gadget', schema: 'Reading' });
const EVENTS = sideSeries<Reading>({ group: 'gadgetEvents', owner: 'gadget', schema: 'Reading' });

const entity = (id: string): Entity => ({ id, name: id, fullyQualifiedName: id, version: 0.1, updatedAt: 1, updatedBy: 'admin', deleted: false }) as Entity;

function storeWith(...ids: string[]): EntityStore {
  const store = new EntityStore();
  for (const id of ids) store.insert('gadget', entity(id), undefined);
  return store;
}

describe('side data areas: declared once, each where the export puts it', () => {
  it.each([
    { area: CONFIG, want: { key: 'gadgets.config', series: false } },
    { area: READINGS, want: { key: 'gadgets.readings', series: true } },
    { area: EVENTS, want: { key: 'gadgetEvents', series: true } },
  ])('$want.key', ({ area, want }) => expect(area).toMatchObject(want));

  it.each([
    { given: { group: 'gadgets', owner: 'gadget', schema: 'X' }, want: /group gadgets already holds/ },
    { given: { group: 'gadgetEvents', field: 'extra', owner: 'gadget', schema: 'X' }, want: /group gadgetEvents already holds/ },
    { given: { group: 'gadgets', field: 'other', owner: 'widget', schema: 'X' }, want: /belong to gadgets/ },
  ])('a declaration that contradicts another is refused: $given.group $given.field', ({ given, want }) => {
    expect(() => sideValue(given)).toThrow(want);
  });
});

describe('EntityStore side data: set, read, remove', () => {
  const cases: { name: string; given: (store: EntityStore) => void; want: SideDataExport }[] = [
    { name: 'nothing stored: every declared group, empty', given: () => {}, want: { gadgets: {}, gadgetEvents: {} } },
    {
      name: 'a value: its entry shows every series of the group, [] when none',
      given: (s) => s.setSide(CONFIG, 'g1', { level: 3 }),
      want: { gadgets: { g1: { config: { level: 3 }, readings: [] } }, gadgetEvents: {} },
    },
    {
      name: 'a series of a group without fields is the entry itself',
      given: (s) => s.setSide(EVENTS, 'g1', [{ timestamp: 1, value: 1 }]),
      want: { gadgets: {}, gadgetEvents: { g1: [{ timestamp: 1, value: 1 }] } },
    },
    {
      name: 'undefined removes a value',
      given: (s) => {
        s.setSide(CONFIG, 'g1', { level: 3 });
        s.setSide(CONFIG, 'g1', undefined);
      },
      want: { gadgets: {}, gadgetEvents: {} },
    },
    {
      name: 'an empty series is no series',
      given: (s) => {
        s.setSide(EVENTS, 'g1', [{ timestamp: 1, value: 1 }]);
        s.setSide(EVENTS, 'g1', []);
      },
      want: { gadgets: {}, gadgetEvents: {} },
    },
    {
      name: 'removing the entity (hard delete) removes its side data, and only its',
      given: (s) => {
        s.setSide(CONFIG, 'g1', { level: 1 });
        s.setSide(EVENTS, 'g1', [{ timestamp: 1, value: 1 }]);
        s.setSide(CONFIG, 'g2', { level: 2 });
        s.remove(s.get('g1')!);
      },
      want: { gadgets: { g2: { config: { level: 2 }, readings: [] } }, gadgetEvents: {} },
    },
    {
      name: 'clearing the store clears the side data',
      given: (s) => {
        s.setSide(CONFIG, 'g1', { level: 1 });
        s.clear();
      },
      want: { gadgets: {}, gadgetEvents: {} },
    },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    const store = storeWith('g1', 'g2');
    given(store);
    expect(store.exportSideData()).toEqual(want);
  });

  it('a stored value is frozen: a change in place fails instead of escaping the journal', () => {
    const store = storeWith('g1');
    store.setSide(READINGS, 'g1', [{ timestamp: 1, value: 1 }]);
    const list = store.getSide(READINGS, 'g1') as Reading[];
    expect(() => list.push({ timestamp: 2, value: 2 })).toThrow(TypeError);
    store.setSide(CONFIG, 'g1', { level: 1 });
    expect(() => {
      (store.getSide(CONFIG, 'g1') as Config).level = 2;
    }).toThrow(TypeError);
    expect(store.getSide(CONFIG, 'g1')).toEqual({ level: 1 });
  });

  it('the export is a copy: changing it changes nothing stored', () => {
    const store = storeWith('g1');
    store.setSide(CONFIG, 'g1', { level: 1 });
    const exported = store.exportSideData();
    (exported.gadgets!.g1 as { config: Config }).config.level = 9;
    expect(store.getSide(CONFIG, 'g1')).toEqual({ level: 1 });
  });
});

describe('EntityStore side data: import', () => {
  const cases: { name: string; given: SideDataExport; want: SideDataExport }[] = [
    {
      name: 'an export round trip is exact',
      given: { gadgets: { g1: { config: { level: 3 }, readings: [{ timestamp: 1, value: 5 }] } }, gadgetEvents: { g2: [{ timestamp: 4, value: 1 }] } },
      want: { gadgets: { g1: { config: { level: 3 }, readings: [{ timestamp: 1, value: 5 }] } }, gadgetEvents: { g2: [{ timestamp: 4, value: 1 }] } },
    },
    {
      name: 'series are put in timestamp order',
      given: {
        gadgetEvents: {
          g1: [
            { timestamp: 3, value: 3 },
            { timestamp: 1, value: 1 },
            { timestamp: 2, value: 2 },
          ],
        },
      },
      want: {
        gadgets: {},
        gadgetEvents: {
          g1: [
            { timestamp: 1, value: 1 },
            { timestamp: 2, value: 2 },
            { timestamp: 3, value: 3 },
          ],
        },
      },
    },
    {
      name: 'groups and fields no area declares are ignored, empty series are none',
      given: { gadgets: { g1: { config: { level: 1 }, colour: 'red', readings: [] } }, unknown: { g1: 1 } },
      want: { gadgets: { g1: { config: { level: 1 }, readings: [] } }, gadgetEvents: {} },
    },
    { name: 'an export without side data imports as none', given: {}, want: { gadgets: {}, gadgetEvents: {} } },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    const store = storeWith('g1', 'g2');
    store.setSide(CONFIG, 'g2', { level: 7 });
    store.importSideData(given);
    expect(store.exportSideData()).toEqual(want);
  });

  it('the imported values are copies: the same export can be imported again (a reset to the start state)', () => {
    const start: SideDataExport = { gadgetEvents: { g1: [{ timestamp: 1, value: 1 }] } };
    const store = storeWith('g1');
    store.importSideData(start);
    store.setSide(EVENTS, 'g1', [...store.getSide(EVENTS, 'g1')!, { timestamp: 2, value: 2 }]);
    expect(start).toEqual({ gadgetEvents: { g1: [{ timestamp: 1, value: 1 }] } });
  });
});

describe('applySideDataChange: a journal change replayed onto an export', () => {
  const cases: { name: string; given: SideDataExport; change: SideDataChange; want: SideDataExport }[] = [
    {
      name: 'sets a field of a new entry',
      given: {},
      change: { group: 'gadgets', field: 'config', id: 'g1', value: { level: 1 } },
      want: { gadgets: { g1: { config: { level: 1 } } } },
    },
    {
      name: 'replaces a field, keeping the others',
      given: { gadgets: { g1: { config: { level: 1 }, readings: [] } } },
      change: { group: 'gadgets', field: 'config', id: 'g1', value: { level: 2 } },
      want: { gadgets: { g1: { config: { level: 2 }, readings: [] } } },
    },
    {
      name: 'removes the last field, and the entry with it',
      given: { gadgets: { g1: { config: { level: 1 } } } },
      change: { group: 'gadgets', field: 'config', id: 'g1' },
      want: { gadgets: {} },
    },
    {
      name: 'sets an entry of a group without fields',
      given: { gadgetEvents: {} },
      change: { group: 'gadgetEvents', id: 'g1', value: [{ timestamp: 1, value: 1 }] },
      want: { gadgetEvents: { g1: [{ timestamp: 1, value: 1 }] } },
    },
    { name: 'removes such an entry', given: { gadgetEvents: { g1: [{ timestamp: 1, value: 1 }] } }, change: { group: 'gadgetEvents', id: 'g1' }, want: { gadgetEvents: {} } },
  ];
  it.each(cases)('$name', ({ given, change, want }) => {
    applySideDataChange(given, change);
    expect(given).toEqual(want);
  });
});

describe('EntityStore.dropOldestSide: the first-written values go, whatever happened since', () => {
  const LOG = EVENTS;
  const at = (n: number): Reading[] => [{ timestamp: n, value: n }];
  const keys = (store: EntityStore) => [...store.sideValuesOf(LOG)].map(([key]) => key);
  const cases: { name: string; given: (store: EntityStore) => void; want: string[] }[] = [
    { name: 'one at a time, as a full log loses its oldest on each write', given: (s) => [1, 1, 1].forEach((n) => s.dropOldestSide(LOG, n)), want: ['e4', 'e5'] },
    { name: 'several at once', given: (s) => s.dropOldestSide(LOG, 3), want: ['e4', 'e5'] },
    { name: 'more than there are: all', given: (s) => s.dropOldestSide(LOG, 9), want: [] },
    {
      name: 'values added after a drop are dropped after the older ones',
      given: (s) => {
        s.dropOldestSide(LOG, 4);
        s.setSide(LOG, 'e6', at(6));
        s.dropOldestSide(LOG, 1);
      },
      want: ['e6'],
    },
    {
      name: 'after every value was dropped, a new one is the oldest',
      given: (s) => {
        s.dropOldestSide(LOG, 5);
        s.setSide(LOG, 'e6', at(6));
        s.setSide(LOG, 'e7', at(7));
        s.dropOldestSide(LOG, 1);
      },
      want: ['e7'],
    },
    {
      name: 'a value removed by setSide in between is not counted',
      given: (s) => {
        s.dropOldestSide(LOG, 1);
        s.setSide(LOG, 'e2', undefined);
        s.dropOldestSide(LOG, 1);
      },
      want: ['e4', 'e5'],
    },
    {
      name: 'a refused write puts the dropped values back first, in order, and the next drop takes them',
      given: (s) => {
        s.dropOldestSide(LOG, 1);
        expect(() =>
          s.atomically(() => {
            s.dropOldestSide(LOG, 2);
            s.setSide(LOG, 'e6', at(6));
            throw new Error('refused');
          }),
        ).toThrow('refused');
        expect(keys(s)).toEqual(['e2', 'e3', 'e4', 'e5']);
        s.dropOldestSide(LOG, 1);
      },
      want: ['e3', 'e4', 'e5'],
    },
    {
      name: 'after the side data is replaced by an import, the import is what is oldest',
      given: (s) => {
        s.dropOldestSide(LOG, 1);
        s.importSideData({ gadgets: {}, gadgetEvents: { x1: at(1), x2: at(2) } });
        s.dropOldestSide(LOG, 1);
      },
      want: ['x2'],
    },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    const store = storeWith();
    for (let n = 1; n <= 5; n++) store.setSide(LOG, `e${n}`, at(n));
    given(store);
    expect(keys(store)).toEqual(want);
  });
});
