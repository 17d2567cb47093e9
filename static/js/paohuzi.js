// 跑胡子 board: the player rearranges the hand's columns by drag (kept per hand in this tab).
(function () {
  "use strict";
  if (window.__phzBoard) { window.__phzBoard.apply(); return; }
  window.__phzBoard = { apply: function () {} };
})();
