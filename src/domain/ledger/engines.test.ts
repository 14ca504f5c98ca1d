import { describe, expect, it } from 'vitest';
import { createBankrunEngine, createLiteSvmEngine, DEFAULT_ENGINE, ENGINES, defaultEngineName, engineFactory } from './engines.ts';

describe('engine names', () => {
  it('defaults to litesvm, or to RELAY_EMULATOR_ENGINE when it is set', () => {
    expect(DEFAULT_ENGINE).toBe('litesvm');
    expect(defaultEngineName({})).toBe('litesvm');
    expect(defaultEngineName({ RELAY_EMULATOR_ENGINE: '' })).toBe('litesvm');
    expect(defaultEngineName({ RELAY_EMULATOR_ENGINE: 'bankrun' })).toBe('bankrun');
    expect(() => defaultEngineName({ RELAY_EMULATOR_ENGINE: 'lite' })).toThrow(/RELAY_EMULATOR_ENGINE=lite names no engine; use one of bankrun, litesvm/);
  });

  it('turns a name into its factory, which loads its engine, and passes a factory through', async () => {
    expect(ENGINES).toEqual({ bankrun: createBankrunEngine, litesvm: createLiteSvmEngine });
    for (const name of ['bankrun', 'litesvm'] as const) {
      const engine = await engineFactory(name)([]);
      expect(engine.name).toBe(name);
      await engine.close();
    }
    expect(engineFactory('litesvm')).toBe(createLiteSvmEngine);
    const own = createBankrunEngine;
    expect(engineFactory(own)).toBe(own);
    expect(() => engineFactory('toString' as 'litesvm')).toThrow(RangeError);
  });
});
