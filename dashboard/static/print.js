/* Print views: the toolbar's Print button (no inline script: the pages' CSP has none). */
(() => {
  const button = document.getElementById("print");
  if (button) button.addEventListener("click", () => window.print());
})();
