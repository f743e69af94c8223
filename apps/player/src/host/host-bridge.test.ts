import { describe, expect, it, vi } from 'vitest';
import { HostBridge, type HostCommands } from './host-bridge';

function setup(forward: Parameters<typeof HostBridge.prototype.emit>[0][] = ['userText']) {
  const posted: unknown[] = [];
  const parent = { postMessage: (m: unknown) => posted.push(m) } as unknown as Window;
  const win = { parent, addEventListener: vi.fn(), removeEventListener: vi.fn() } as unknown as Window;
  const commands: HostCommands = {
    sendChat: vi.fn(),
    setMic: vi.fn(),
    setSpeaker: vi.fn(),
    say: vi.fn(),
    connect: vi.fn(),
    disconnect: vi.fn(),
  };
  const bridge = new HostBridge(commands, forward, win);
  return { bridge, commands, parent, posted };
}

describe('host page bridge', () => {
  it('runs the commands the embedding page sends', () => {
    const { bridge, commands, parent } = setup();
    bridge.handle({ source: parent, data: { command: 'sendChat', message: ' Hello ' } });
    bridge.handle({ source: parent, data: { command: 'setMic', message: false } });
    bridge.handle({ source: parent, data: { command: 'setSpeaker', message: 'true' } });
    bridge.handle({ source: parent, data: { command: 'say', message: 'Welcome!' } });
    expect(commands.sendChat).toHaveBeenCalledWith('Hello');
    expect(commands.setMic).toHaveBeenCalledWith(false);
    expect(commands.setSpeaker).toHaveBeenCalledWith(true);
    expect(commands.say).toHaveBeenCalledWith('Welcome!');
  });

  it('ignores messages from anyone but the embedding page, and unknown commands', () => {
    const { bridge, commands, parent } = setup();
    bridge.handle({ source: {} as Window, data: { command: 'sendChat', message: 'x' } });
    bridge.handle({ source: parent, data: { command: 'eval', message: 'x' } });
    bridge.handle({ source: parent, data: 'sendChat' });
    bridge.handle({ source: parent, data: { command: 'setMic', message: 'sometimes' } });
    expect(commands.sendChat).not.toHaveBeenCalled();
    expect(commands.setMic).not.toHaveBeenCalled();
  });

  it('forwards only the chosen events, and the page can change the choice', () => {
    const { bridge, parent, posted } = setup(['userText']);
    bridge.emit('userText', { text: 'hi' });
    bridge.emit('assistantText', { text: 'hello' });
    expect(posted).toEqual([{ source: 'parla-player', event: 'userText', data: { text: 'hi' } }]);
    bridge.handle({ source: parent, data: { command: 'forwardEvents', message: ['assistantText', 'bogus'] } });
    bridge.emit('userText', { text: 'again' });
    bridge.emit('assistantText', { text: 'hello' });
    expect(posted).toHaveLength(2);
    expect(posted[1]).toMatchObject({ event: 'assistantText' });
  });
});
