//! An isometric view of unit cubes drawn with egui's painter: bevelled and
//! shaded by face and height (the seed's "skins"), depth-sorted, turnable
//! by dragging or with buttons.

use egui::{Color32, Pos2, Sense, Shape, Stroke, Vec2};

/// One cube to draw: 0-based cell and its colour.
#[derive(Debug, Clone, Copy)]
pub struct Cube {
    /// Cell (x, y, z), z up.
    pub cell: [i32; 3],
    /// Fill colour (alpha honoured for ghosts).
    pub colour: Color32,
}

/// The camera: turn about z (radians) and a fixed elevation.
#[derive(Debug, Clone, Copy)]
pub struct Camera {
    /// Rotation about the vertical axis.
    pub yaw: f32,
    /// Angle above the horizon.
    pub elevation: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            yaw: 0.6,
            elevation: 0.55,
        }
    }
}

impl Camera {
    /// World point (box-centred) to (screen x, screen y, depth toward viewer).
    fn project(&self, p: [f32; 3]) -> (f32, f32, f32) {
        let (s, c) = self.yaw.sin_cos();
        let x1 = p[0] * c - p[1] * s;
        let y1 = p[0] * s + p[1] * c;
        let (se, ce) = self.elevation.sin_cos();
        let sy = -(p[2] * ce + y1 * se);
        let depth = -y1 * ce + p[2] * se;
        (x1, sy, depth)
    }

    fn facing(&self, n: [f32; 3]) -> f32 {
        let (_, _, d) = self.project(n);
        d
    }
}

const FACES: [([f32; 3], [[f32; 3]; 4]); 6] = [
    (
        [1.0, 0.0, 0.0],
        [[1., 0., 0.], [1., 1., 0.], [1., 1., 1.], [1., 0., 1.]],
    ),
    (
        [-1.0, 0.0, 0.0],
        [[0., 0., 0.], [0., 0., 1.], [0., 1., 1.], [0., 1., 0.]],
    ),
    (
        [0.0, 1.0, 0.0],
        [[0., 1., 0.], [0., 1., 1.], [1., 1., 1.], [1., 1., 0.]],
    ),
    (
        [0.0, -1.0, 0.0],
        [[0., 0., 0.], [1., 0., 0.], [1., 0., 1.], [0., 0., 1.]],
    ),
    (
        [0.0, 0.0, 1.0],
        [[0., 0., 1.], [1., 0., 1.], [1., 1., 1.], [0., 1., 1.]],
    ),
    (
        [0.0, 0.0, -1.0],
        [[0., 0., 0.], [0., 1., 0.], [1., 1., 0.], [1., 0., 0.]],
    ),
];

/// The light's direction (from the surface toward it): above, a little
/// to the front-right, so top faces are brightest and the two visible
/// sides differ.
const LIGHT: [f32; 3] = [0.3, -0.5, 0.8];

/// The bevel's width, as a share of a face's size (each corner moves this
/// far toward the face's centre).
const BEVEL: f32 = 0.14;

/// How one face of a cube is painted: the seed's "skins" (bevelled unit
/// cubes with shading).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skin {
    /// The inner face.
    pub face: Color32,
    /// The chamfered rim around it: lighter on faces toward the light,
    /// darker on the others, as a bevel catches the light.
    pub rim: Color32,
}

/// The skin of the face with `normal` of a cube at height `z` (0-based) in
/// a box `height` cubes high. Shading by face (the light's angle) and by
/// height (a cube higher in the box is lighter, so layers read apart and
/// heights can be told in a still picture).
pub fn skin(colour: Color32, normal: [f32; 3], z: i32, height: usize) -> Skin {
    let facing = normal[0] * LIGHT[0] + normal[1] * LIGHT[1] + normal[2] * LIGHT[2];
    let rise = if height > 1 {
        (z.max(0) as f32 / (height - 1) as f32).min(1.0)
    } else {
        1.0
    };
    let light = 0.5 + 0.5 * facing;
    // Height moves the light from 80% (floor) to 100% (top layer).
    let lit = |l: f32| l * (0.8 + 0.2 * rise);
    let face = shade(colour, lit(light));
    let rim = if facing > 0.0 {
        shade(colour, lit(light + 0.35))
    } else {
        shade(colour, lit(light - 0.3))
    };
    Skin { face, rim }
}

/// `points` moved toward their centre by `share` of the way.
fn inset(points: &[Pos2], share: f32) -> Vec<Pos2> {
    let n = points.len().max(1) as f32;
    let centre = points.iter().fold(Vec2::ZERO, |sum, p| sum + p.to_vec2()) / n;
    points
        .iter()
        .map(|p| *p + (centre - p.to_vec2()) * share)
        .collect()
}

fn shade(colour: Color32, light: f32) -> Color32 {
    let k = 0.45 + 0.55 * light.clamp(0.0, 1.0);
    Color32::from_rgba_unmultiplied(
        (f32::from(colour.r()) * k) as u8,
        (f32::from(colour.g()) * k) as u8,
        (f32::from(colour.b()) * k) as u8,
        colour.a(),
    )
}

/// Where [`show`] drew: the area and the camera, so a point of the box can
/// be found on screen again (tests click cubes through it).
#[derive(Debug, Clone, Copy)]
pub struct Drawn {
    /// The 3D area.
    pub rect: egui::Rect,
    /// The camera it was drawn with.
    pub camera: Camera,
    /// The box extents (x, y, z).
    pub size: [usize; 3],
}

impl Drawn {
    /// The screen point of box point `p` (0-based cell units, z up) and
    /// its depth toward the viewer.
    fn project(&self, p: [f32; 3]) -> (Pos2, f32) {
        let size = self.size;
        let centre = [
            size[0] as f32 / 2.0,
            size[1] as f32 / 2.0,
            size[2] as f32 / 2.0,
        ];
        let extent = (size[0].max(size[1]).max(size[2]) as f32).max(1.0);
        let scale = self.rect.width().min(self.rect.height()) / (extent * 1.9);
        let (x, y, d) = self
            .camera
            .project([p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]]);
        (self.rect.center() + Vec2::new(x, y) * scale, d)
    }

    /// The screen point of box point `p` (0-based cell units, z up).
    pub fn to_screen(&self, p: [f32; 3]) -> Pos2 {
        self.project(p).0
    }

    /// The middle of the top face of `cell` on screen.
    pub fn top_of(&self, cell: [i32; 3]) -> Pos2 {
        self.to_screen([
            cell[0] as f32 + 0.5,
            cell[1] as f32 + 0.5,
            cell[2] as f32 + 1.0,
        ])
    }
}

/// What the player did in the 3D view this frame.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// Where it was drawn.
    pub drawn: Drawn,
    /// The index (in the `cubes` given) of the cube clicked, if a click
    /// landed on one: the nearest face under the pointer wins, as drawn.
    pub clicked: Option<usize>,
}

/// Whether `p` lies inside the convex polygon `points` (either winding).
fn inside(points: &[Pos2], p: Pos2) -> bool {
    let mut sign = 0.0_f32;
    for (i, a) in points.iter().enumerate() {
        let b = points[(i + 1) % points.len()];
        let cross = (b - *a).x * (p - *a).y - (b - *a).y * (p - *a).x;
        if cross.abs() < f32::EPSILON {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    sign != 0.0
}

/// Draws the box outline and the cubes in `size` (x, y, z) into a new area
/// of `height` points, or what is left below its row of buttons when that
/// is less (it never runs past its panel: a least height did, under the
/// window's bottom); dragging turns the camera, clicking a cube reports it.
pub fn show(
    ui: &mut egui::Ui,
    camera: &mut Camera,
    size: [usize; 3],
    cubes: &[Cube],
    height: f32,
) -> Shown {
    ui.horizontal(|ui| {
        if ui.button("⟲").on_hover_text("Turn the view left").clicked() {
            camera.yaw -= std::f32::consts::FRAC_PI_8;
        }
        if ui
            .button("⟳")
            .on_hover_text("Turn the view right")
            .clicked()
        {
            camera.yaw += std::f32::consts::FRAC_PI_8;
        }
        // Elided at the panel's edge (a docked view beside the slices is
        // narrow: it was cut there).
        ui.add(egui::Label::new(egui::RichText::new("drag to turn").weak()).truncate());
    });
    // Callers size the view from the height left before this row: without
    // taking the row off, the playtest's view ran 11 px past the window.
    let height = height.min(ui.available_height()).max(0.0);
    let width = ui.available_width().max(120.0);
    let (rect, response) =
        ui.allocate_exact_size(Vec2::new(width, height), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "3D view"));
    let click = response
        .clicked()
        .then(|| response.interact_pointer_pos())
        .flatten();
    let mut clicked = None;
    if response.dragged() {
        camera.yaw += response.drag_delta().x * 0.01;
        camera.elevation = (camera.elevation - response.drag_delta().y * 0.01).clamp(0.1, 1.4);
    }
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, ui.visuals().extreme_bg_color);
    let drawn = Drawn {
        rect,
        camera: *camera,
        size,
    };
    let to_screen = |p: [f32; 3]| drawn.project(p);
    // Floor outline of the box.
    let floor = [
        [0.0, 0.0, 0.0],
        [size[0] as f32, 0.0, 0.0],
        [size[0] as f32, size[1] as f32, 0.0],
        [0.0, size[1] as f32, 0.0],
    ];
    let outline: Vec<Pos2> = floor.iter().map(|&p| to_screen(p).0).collect();
    painter.add(Shape::closed_line(
        outline,
        Stroke::new(1.0, ui.visuals().weak_text_color()),
    ));
    let mut order: Vec<(f32, (usize, &Cube))> = cubes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let p = [
                c.cell[0] as f32 + 0.5,
                c.cell[1] as f32 + 0.5,
                c.cell[2] as f32 + 0.5,
            ];
            (to_screen(p).1, (i, c))
        })
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, (index, cube)) in order {
        for (normal, corners) in FACES {
            if drawn.camera.facing(normal) <= 0.0 {
                continue;
            }
            let points: Vec<Pos2> = corners
                .iter()
                .map(|c| {
                    to_screen([
                        cube.cell[0] as f32 + c[0],
                        cube.cell[1] as f32 + c[1],
                        cube.cell[2] as f32 + c[2],
                    ])
                    .0
                })
                .collect();
            // Faces are drawn far to near: the last one under the
            // pointer is the one the player sees.
            if click.is_some_and(|p| inside(&points, p)) {
                clicked = Some(index);
            }
            let skin = skin(cube.colour, normal, cube.cell[2], size[2]);
            let edge = Stroke::new(0.8, Color32::from_black_alpha(120));
            if cube.colour.a() < 255 {
                // A see-through ghost: one layer, or the overlap would
                // make its middle more solid than its rim.
                painter.add(Shape::convex_polygon(points, skin.face, edge));
                continue;
            }
            // The bevel: the whole face in the rim's colour, the inset
            // face over it, so every cube shows a chamfered edge.
            let inner = inset(&points, BEVEL);
            painter.add(Shape::convex_polygon(points, skin.rim, edge));
            painter.add(Shape::convex_polygon(inner, skin.face, Stroke::NONE));
        }
    }
    Shown { drawn, clicked }
}

/// A palette colour for piece `i`.
pub fn palette(i: usize) -> Color32 {
    palette_entry(i)
}

/// Piece `i`'s colour: its own (`colour` in the level) or the palette's.
pub fn piece_colour(level: &tessera_polycube::PolycubeLevel, i: usize) -> Color32 {
    match level.pieces.get(i).and_then(|p| p.colour) {
        Some((r, g, b)) => Color32::from_rgb(r, g, b),
        None => palette_entry(i),
    }
}

fn palette_entry(i: usize) -> Color32 {
    // No red and no ghost green: those mean "refused" and "legal" on the
    // ghost, so no piece may look like either.
    const COLOURS: [(u8, u8, u8); 12] = [
        (150, 110, 70),
        (70, 140, 230),
        (240, 190, 60),
        (40, 120, 150),
        (170, 100, 210),
        (240, 140, 60),
        (60, 190, 200),
        (220, 110, 170),
        (150, 150, 70),
        (110, 120, 240),
        (120, 120, 135),
        (200, 200, 225),
    ];
    let (r, g, b) = COLOURS[i % COLOURS.len()];
    Color32::from_rgb(r, g, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brightness(c: Color32) -> u32 {
        u32::from(c.r()) + u32::from(c.g()) + u32::from(c.b())
    }

    #[test]
    fn skins_shade_by_face_and_height_and_show_a_bevel() {
        let colour = Color32::from_rgb(150, 110, 70);
        let top = [0.0, 0.0, 1.0];
        let front = [0.0, -1.0, 0.0];
        let left = [-1.0, 0.0, 0.0];
        // By face: the top is lit more than the sides, the sides differ.
        let at = |normal, z| skin(colour, normal, z, 3);
        assert!(brightness(at(top, 0).face) > brightness(at(front, 0).face));
        assert!(brightness(at(front, 0).face) > brightness(at(left, 0).face));
        // By height: the same face is lighter one layer up, and lightest
        // at the top layer.
        for normal in [top, front, left] {
            let (low, mid, high) = (at(normal, 0), at(normal, 1), at(normal, 2));
            assert!(brightness(low.face) < brightness(mid.face), "{normal:?}");
            assert!(brightness(mid.face) < brightness(high.face), "{normal:?}");
        }
        // A bevel: the rim is lighter than a lit face, darker than a
        // face turned away.
        assert!(brightness(at(top, 1).rim) > brightness(at(top, 1).face));
        assert!(brightness(at(left, 1).rim) < brightness(at(left, 1).face));
        // A ghost's transparency survives.
        let ghost = Color32::from_rgba_unmultiplied(80, 200, 120, 110);
        assert_eq!(skin(ghost, top, 0, 1).face.a(), 110);
    }

    #[test]
    fn an_inset_face_keeps_its_centre_and_shrinks() {
        let square = [
            Pos2::new(0.0, 0.0),
            Pos2::new(10.0, 0.0),
            Pos2::new(10.0, 10.0),
            Pos2::new(0.0, 10.0),
        ];
        let inner = inset(&square, 0.1);
        assert_eq!(inner[0], Pos2::new(0.5, 0.5));
        assert_eq!(inner[2], Pos2::new(9.5, 9.5));
    }
}
