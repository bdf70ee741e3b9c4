import { useTheme, type ThemeChoice } from './theme';

/** The colour theme picker in the navigation bar: System (the default), Light or Dark, remembered in this browser. */
export function ThemeMenu() {
  const [choice, setChoice] = useTheme();
  return (
    <label className="theme-menu">
      <span className="visually-hidden">Colour theme</span>
      <select value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)}>
        <option value="system">Theme: system</option>
        <option value="light">Theme: light</option>
        <option value="dark">Theme: dark</option>
      </select>
    </label>
  );
}
