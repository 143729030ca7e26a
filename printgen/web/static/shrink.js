// printgen serve: shrink photos in the browser before they are sent.
//
// A phone photo of 4-12 MB takes many seconds over a busy Wi-Fi link; the reader reads a sheet
// as well at 2,500 px on the long side. On submit, each chosen photo larger than that is drawn
// smaller on a canvas (turned upright as its EXIF says, on white paper) and sent as a JPEG in
// its place, under the same name: the server knows a JPEG by its bytes, and its messages name
// the photo as the player chose it. Without JavaScript, if the browser cannot decode the photo,
// or if it is no kind the server reads (a GIF, a BMP) or too narrow to be a sheet, the original
// is sent as it is: the server shrinks or refuses it, in the same words as without JavaScript.
// While sending, the button is disabled and a busy line shows.
"use strict";

(function () {
  var LONG_SIDE = 2500;
  var QUALITY = 0.9;
  var SMALL_ENOUGH = 1.5 * 1024 * 1024; // bytes: a photo this small is sent as it is
  var READ_TYPES = /^image\/(jpeg|png|webp|heic|heif|avif)$/;
  var NARROWEST = 4; // a picture whose long side is more than 4 times its short one holds no sheet

  function shrink(file) {
    if (!READ_TYPES.test(file.type) || !window.createImageBitmap) {
      return Promise.resolve(file);
    }
    return createImageBitmap(file, { imageOrientation: "from-image" }).then(function (bitmap) {
      var longSide = Math.max(bitmap.width, bitmap.height);
      var scale = Math.min(1, LONG_SIDE / longSide);
      var narrow = longSide > NARROWEST * Math.min(bitmap.width, bitmap.height);
      if ((scale === 1 && file.size <= SMALL_ENOUGH) || narrow) {
        bitmap.close();
        return file;
      }
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      var context = canvas.getContext("2d");
      context.imageSmoothingQuality = "high";
      // Transparent paper is white, as the server lays it: a JPEG has no transparency, and a
      // canvas left clear had turned such a photo black.
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      return new Promise(function (resolve) {
        canvas.toBlob(function (blob) {
          if (!blob) {
            resolve(file);
            return;
          }
          resolve(new File([blob], file.name, { type: "image/jpeg" }));
        }, "image/jpeg", QUALITY);
      });
    }).catch(function () {
      return file; // not decodable here (HEIC on some browsers): the server decides
    });
  }

  function replaceFiles(input) {
    var files = Array.prototype.slice.call(input.files || []);
    if (!files.length || !window.DataTransfer) {
      return Promise.resolve();
    }
    return Promise.all(files.map(shrink)).then(function (shrunk) {
      var transfer = new DataTransfer();
      shrunk.forEach(function (file) { transfer.items.add(file); });
      input.files = transfer.files;
    });
  }

  function start() {
    var form = document.getElementById("photo-form");
    if (!form) {
      return;
    }
    var button = document.getElementById("send");
    var busy = document.getElementById("busy");
    var sending = false;
    form.addEventListener("submit", function (event) {
      if (sending) {
        return; // the second, programmatic submit below
      }
      event.preventDefault();
      sending = true;
      button.disabled = true;
      busy.hidden = false;
      busy.textContent = "Making the photo smaller…";
      var inputs = form.querySelectorAll("input[type=file]");
      Promise.all(Array.prototype.map.call(inputs, replaceFiles)).catch(function () {
        return null; // whatever went wrong, the photos are sent as they are
      }).then(function () {
        busy.textContent = "Sending and reading the photo…";
        form.submit();
      });
    });
    // Back to this page from the result (the browser's cache): ready to send again.
    window.addEventListener("pageshow", function () {
      sending = false;
      button.disabled = false;
      busy.hidden = true;
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
