// Entry of dev/fixture.html (a separate file: the server's Content-Security-Policy allows no
// inline scripts).
import { mountFixture } from './fixture.js';

const name = new URLSearchParams(location.search).get('scene') || 'movement';
mountFixture(document.getElementById('app'), name);
