// Optional sounds, made on the spot with WebAudio (no sound files): a chime when it becomes
// your move, a rattle of dice when dice are rolled in a battle or bombardment. Both are off
// until the player turns them on (settings soundTurn, soundBattle).

import { settings } from './settings.js';

let context = null;

// Browsers start audio only after a user gesture: the click that turns a sound on calls this.
export function unlockAudio() {
  const ctx = audioContext();
  if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => {});
}

function audioContext() {
  if (context) return context;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    context = null;
  }
  return context;
}

// What was played, for the browser tests (the page cannot be listened to).
export const soundLog = [];

const SOUND_SETTING = { turn: 'soundTurn', battle: 'soundBattle' };

// Plays `name` ('turn' or 'battle') if its setting is on. Returns whether it was played.
export function playSound(name) {
  if (!settings.get(SOUND_SETTING[name])) return false;
  const ctx = audioContext();
  if (!ctx) return false;
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  const at = ctx.currentTime + 0.02;
  if (name === 'turn') chime(ctx, at);
  else if (name === 'battle') rattle(ctx, at);
  soundLog.push({ name, at: Date.now() });
  if (soundLog.length > 50) soundLog.shift();
  return true;
}

// Two soft bell tones, a fifth apart.
function chime(ctx, at) {
  [660, 990].forEach((freq, i) => {
    const start = at + i * 0.16;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.6);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + 0.65);
  });
}

// Dice on a table: a few short clicks of filtered noise at uneven intervals.
function rattle(ctx, at) {
  const length = Math.floor(ctx.sampleRate * 0.05);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const offsets = [0, 0.07, 0.12, 0.2, 0.26, 0.37];
  for (const offset of offsets) {
    const src = ctx.createBufferSource();
    src.buffer = buffer;
    const filter = ctx.createBiquadFilter();
    filter.type = 'bandpass';
    filter.frequency.value = 2200 + Math.random() * 1800;
    filter.Q.value = 3;
    const gain = ctx.createGain();
    gain.gain.value = 0.5 - offset;
    src.connect(filter).connect(gain).connect(ctx.destination);
    src.start(at + offset);
  }
}
