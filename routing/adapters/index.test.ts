import { WIRES } from '../catalog/types';
import { chatCompatAdapter } from './chat-compat';
import { adapterFor } from './index';
import { vendorAAdapter } from './vendor-a';
import { vendorBAdapter } from './vendor-b';

describe('adapterFor', () => {
  it('has an adapter for every wire a catalog may name', () => {
    for (const wire of WIRES) expect(typeof adapterFor(wire).call).toBe('function');
  });

  it('sends each wire to its own vendor adapter', () => {
    expect(adapterFor('chat_compat')).toBe(chatCompatAdapter);
    expect(adapterFor('vendor_a')).toBe(vendorAAdapter);
    expect(adapterFor('vendor_b')).toBe(vendorBAdapter);
  });
});
