#!/usr/bin/env python3
"""Draws the Foreman app icon and writes every size Tauri wants into icons/.

The mark: a rounded square in deep indigo with a warm gradient, a white check-mark inside an
"approval" bracket — the user approving what the agent proposes. Run from the repository root:
    python3 scripts/make-icons.py      (needs Pillow)
"""
from PIL import Image, ImageDraw

S = 1024


def gradient(size, top, bottom):
    img = Image.new("RGBA", (size, size))
    px = img.load()
    for y in range(size):
        t = y / (size - 1)
        c = tuple(int(top[i] + (bottom[i] - top[i]) * t) for i in range(3)) + (255,)
        for x in range(size):
            px[x, y] = c
    return img


def draw_master():
    base = gradient(S, (79, 70, 229), (30, 27, 75))  # indigo-600 -> indigo-950
    mask = Image.new("L", (S, S), 0)
    ImageDraw.Draw(mask).rounded_rectangle([64, 64, S - 64, S - 64], radius=220, fill=255)
    icon = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    icon.paste(base, (0, 0), mask)
    d = ImageDraw.Draw(icon)
    w = 56
    # Brackets: the frame in which the agent's proposal is shown.
    amber = (251, 191, 36, 255)
    d.line([(330, 270), (250, 270), (250, 754), (330, 754)], fill=amber, width=w, joint="curve")
    d.line([(694, 270), (774, 270), (774, 754), (694, 754)], fill=amber, width=w, joint="curve")
    # The check: the user's approval.
    d.line([(360, 530), (470, 640), (670, 400)], fill=(255, 255, 255, 255), width=84, joint="curve")
    for (x, y) in [(360, 530), (670, 400)]:
        d.ellipse([x - 42, y - 42, x + 42, y + 42], fill=(255, 255, 255, 255))
    return icon


def main():
    master = draw_master()
    out = "icons/"
    # Every size of the freedesktop icon theme, for the .deb and .rpm (hicolor/NxN/apps).
    for name, size in [("16x16.png", 16), ("24x24.png", 24), ("32x32.png", 32), ("48x48.png", 48),
                       ("64x64.png", 64), ("128x128.png", 128), ("128x128@2x.png", 256),
                       ("256x256.png", 256), ("512x512.png", 512), ("icon.png", 512)]:
        master.resize((size, size), Image.LANCZOS).save(out + name)
    master.save(out + "icon.ico", sizes=[(16, 16), (24, 24), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)])
    master.save(out + "icon.icns")


if __name__ == "__main__":
    main()
