import { describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILES, mapTileSource } from './map-tiles';

describe('mapTileSource (the pages may load map images from there)', () => {
  it("is the scheme and host of an http(s) template, OpenStreetMap's by default", () => {
    expect(mapTileSource(DEFAULT_MAP_TILES.url)).toBe('https://tile.openstreetmap.org');
    expect(mapTileSource('http://Tiles.Example.com:8080/{z}/{x}/{-y}.png?key=1')).toBe('http://tiles.example.com:8080');
  });

  it("allows every subdomain of a template's {s}", () => {
    expect(mapTileSource('https://{s}.tile.example.org/{z}/{x}/{y}{r}.png')).toBe('https://*.tile.example.org');
  });

  it('needs no source for tiles served by this app', () => {
    expect(mapTileSource('/tiles/{z}/{x}/{y}.png')).toBe('');
  });

  it('refuses what is not a tile template or names a host no policy can express', () => {
    for (const bad of [
      'https://tile.example.org/{z}/{x}.png',
      'https://tile.example.org/tile.png',
      '//tile.example.org/{z}/{x}/{y}.png',
      'ftp://tile.example.org/{z}/{x}/{y}.png',
      'https://tile-{s}.example.org/{z}/{x}/{y}.png',
      'https://tile.example.org;img-src */{z}/{x}/{y}.png',
      'https://user@tile.example.org/{z}/{x}/{y}.png',
    ])
      expect(mapTileSource(bad), bad).toBeNull();
  });
});
