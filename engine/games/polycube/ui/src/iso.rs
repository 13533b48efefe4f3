//! An isometric view of unit cubes drawn with egui's painter: shaded,
//! depth-sorted, turnable by dragging or with buttons.

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
/// of `height` points; dragging turns the camera, clicking a cube reports
/// it.
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
        ui.weak("drag to turn");
    });
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
    let light = [0.3_f32, -0.5, 0.8];
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
            let l = normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2];
            painter.add(Shape::convex_polygon(
                points,
                shade(cube.colour, 0.5 + 0.5 * l),
                Stroke::new(0.8, Color32::from_black_alpha(120)),
            ));
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
