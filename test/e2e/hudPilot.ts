/**
 * A pilot for the e2e tests that flies by the combat HUD with a gamepad, at
 * the page's frame rate, as a player's hands do: each animation frame it
 * reads where the lead indicator (else the target's brackets, else the edge
 * arrow) sits from the crosshair, pushes the left stick that way in
 * proportion, and holds the right trigger (the laser) while the crosshair is
 * on the lead indicator and the target within a bolt's reach. Keys are too
 * coarse for a ship that turns at 1.6 rad/s: a tap turns it ~2°, about 20 px.
 *
 * The pad is a stand-in (headless Chromium has none): `navigator.getGamepads`
 * answers it from the moment `startHudPilot` runs (the page reads the pad
 * every input sample). Set `joy_deadzone 0` for the stick to act from the
 * centre out.
 */
import type { Page } from 'playwright-core';

/** Starts (or resumes) the pilot on `page`. */
export async function startHudPilot(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Pilot = { on: boolean; pad: { axes: number[]; buttons: { pressed: boolean; touched: boolean; value: number }[] } };
    const w = window as unknown as { __hudPilot?: Pilot };
    if (w.__hudPilot) {
      w.__hudPilot.on = true;
      return;
    }
    const buttons = Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 }));
    const pad = { id: 'HUD pilot (STANDARD GAMEPAD)', index: 0, connected: true, mapping: 'standard', axes: [0, 0, 0, 0], buttons, timestamp: 0 };
    const pilot: Pilot = { on: true, pad };
    w.__hudPilot = pilot;
    Object.defineProperty(navigator, 'getGamepads', { value: () => [pad, null, null, null], configurable: true });
    const centre = (e: Element | null): { x: number; y: number } | null => {
      if (!e || (e as HTMLElement).hidden || e.getClientRects().length === 0) return null;
      const b = e.getBoundingClientRect();
      return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
    };
    const RT = 7;
    const frame = () => {
      requestAnimationFrame(frame);
      let yaw = 0;
      let pitch = 0;
      let fire = false;
      if (pilot.on) {
        const cross = centre(document.getElementById('hud-crosshair'));
        const lead = centre(document.getElementById('hud-lead'));
        const mark = lead ?? centre(document.getElementById('hud-bracket'));
        const arrow = centre(document.querySelector('#hud-offscreen:not([hidden]) .head'));
        if (cross && mark) {
          const dx = mark.x - cross.x;
          const dy = mark.y - cross.y;
          // Full stick 120 px off, in proportion below: the ship's turn lags the stick by ~0.1 s.
          yaw = Math.max(-1, Math.min(1, dx / 120));
          pitch = Math.max(-1, Math.min(1, -dy / 120));
          const k = window.innerHeight / 720;
          const dist = Number.parseInt(window.__starlane?.hud().targetDistance ?? '', 10);
          fire = lead !== null && Math.hypot(dx, dy) < 14 * k && dist < 550;
        } else if (arrow) {
          yaw = arrow.x > window.innerWidth / 2 ? 1 : -1;
          pitch = arrow.y < window.innerHeight / 2 ? 0.5 : -0.5;
        }
      }
      pad.axes[0] = yaw;
      // The stick pulled back (+Y) climbs: the mark above the crosshair (dy < 0) wants +Y.
      pad.axes[1] = pitch;
      buttons[RT]!.pressed = fire;
      buttons[RT]!.value = fire ? 1 : 0;
    };
    requestAnimationFrame(frame);
  });
}

/** Stops the pilot: sticks centred, trigger let go. */
export async function stopHudPilot(page: Page): Promise<void> {
  await page.evaluate(() => {
    const p = (window as unknown as { __hudPilot?: { on: boolean } }).__hudPilot;
    if (p) p.on = false;
  });
}
