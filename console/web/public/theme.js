// The colour theme a person chose (Light or Dark; none means the system's), applied before the first paint so a dark
// page never flashes white. A plain external script because the console's Content-Security-Policy refuses inline ones;
// console/web/src/theme.ts writes the same key.
(function () {
  try {
    var theme = window.localStorage.getItem('keel-theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
  } catch (err) {
    // Storage refused (a private window's policy): the system's theme applies.
  }
})();
