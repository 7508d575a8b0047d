import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PortRoles } from './port-roles.js';

const request = (url: string, socket = {} as Socket) => ({ url, socket }) as IncomingMessage;

describe('PortRoles: what each kind of port serves', () => {
  it('serves everything everywhere while no admin port is set', () => {
    const roles = new PortRoles();
    expect(roles.servesConsole(request('/flussonic/api/server'))).toBe(true);
    expect(roles.servesPlayback(request('/cam/index.m3u8'))).toBe(true);
  });

  it('keeps the console and the API off public ports once an admin port is set, but not playback nor mirrors', () => {
    const roles = new PortRoles();
    roles.setAdminPorts(true);
    for (const path of [
      '/',
      '/admin',
      '/admin/assets/x.js',
      '/flussonic/api/read_config?x=1',
      '/letsencrypt',
    ])
      expect(roles.servesConsole(request(path)), path).toBe(false);
    for (const path of ['/cam/index.m3u8', '/flussonic/api/cluster/streams', '/administrator/index.m3u8'])
      expect(roles.servesConsole(request(path)), path).toBe(true);
  });

  it('tags admin connections and requests: console everywhere on them, playback nowhere', () => {
    const roles = new PortRoles();
    roles.setAdminPorts(true);
    const socket = {} as Socket;
    roles.tagSocket(socket, 'admin');
    const plain = request('/flussonic/api/server', socket);
    expect(roles.servesConsole(plain)).toBe(true);
    expect(roles.servesPlayback(request('/cam/index.m3u8', socket))).toBe(false);
    const overTls = request('/cam/index.m3u8');
    roles.tagRequest(overTls, 'admin');
    expect(roles.servesPlayback(overTls)).toBe(false);
  });
});
